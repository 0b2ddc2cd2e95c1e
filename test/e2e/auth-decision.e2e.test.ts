import { mkdtempSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InMemoryApiKeyStore } from '../../shared/adapters/memory/in-memory-api-key-store.js';
import { startDevServer, type RunningServer } from '../support/start-dev-server.js';

// Issue 17: revoking every key (or moving the key file away) turned auth off on the local server.
const body = { query: 'q', documents: ['a', 'b'] };
const dir = mkdtempSync(join(tmpdir(), 'rerank-auth-decision-'));

const rerank = async (server: RunningServer, key?: string) =>
  (
    await fetch(`${server.url}/v1/rerank`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) },
      body: JSON.stringify(body),
    })
  ).status;

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a server started with a key file', () => {
  let server: RunningServer;
  let store: InMemoryApiKeyStore;
  let key: string;
  const file = () => join(dir, 'with-keys', 'keys.json');

  beforeAll(async () => {
    store = new InMemoryApiKeyStore({ file: file() });
    key = (await store.create('only')).key;
    server = await startDevServer({ RERANK_KEYS_FILE: file() });
  });

  afterAll(() => server?.stop());

  it('stays closed when every key is revoked, and the revoked key is refused', async () => {
    expect(await rerank(server, key)).toBe(200);
    const [record] = await store.list();
    expect(await store.revoke(record?.keyId ?? '')).toBe(true);
    expect(await rerank(server, key)).toBe(401);
    expect(await rerank(server)).toBe(401);
  });

  it('stays closed when the key file is moved away', async () => {
    renameSync(file(), join(dir, 'moved.json'));
    expect(await rerank(server)).toBe(401);
    expect(await rerank(server, key)).toBe(401);
  });
});

describe('a server started with no key at all', () => {
  let server: RunningServer;
  const file = join(dir, 'fresh', 'keys.json');

  beforeAll(async () => {
    server = await startDevServer({ RERANK_KEYS_FILE: file });
  });

  afterAll(() => server?.stop());

  it('is open, and closes for good once a key is created', async () => {
    expect(await rerank(server)).toBe(200);
    const store = new InMemoryApiKeyStore({ file });
    const { key, record } = await store.create('first');
    expect(await rerank(server)).toBe(401);
    expect(await rerank(server, key)).toBe(200);
    await store.revoke(record.keyId);
    expect(await rerank(server)).toBe(401);
  });
});
