import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InMemoryApiKeyStore } from '../../shared/adapters/memory/in-memory-api-key-store.js';
import { startDevServer, type RunningServer } from '../support/start-dev-server.js';

// Client keys from the key store file `npm run keys` writes: hashed at rest, with per-key limits.
let server: RunningServer;
let dir: string;
let store: InMemoryApiKeyStore;
const keys: Record<string, string> = {};

const post = async (path: string, body: unknown, key?: string, headers: Record<string, string> = {}) => {
  const res = await fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}), ...headers },
    body: JSON.stringify(body),
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, unknown> };
};

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'rerank-keys-'));
  const file = join(dir, 'keys.json');
  store = new InMemoryApiKeyStore({ file });
  keys['limited'] = (await store.create('limited', { rateLimitPerMinute: 3 })).key;
  keys['oneJob'] = (await store.create('one-job', { maxConcurrentJobs: 1 })).key;
  keys['revoked'] = (await store.create('revoked')).key;
  server = await startDevServer({ RERANK_KEYS_FILE: file, RERANK_RETRY_DELAY_MS: '10', RERANK_LOCAL_WORKERS: '1' });
  // Load the model now (with a key that has no rate limit), so no rate-limited request waits for it.
  expect((await post('/v1/rerank', body, keys['oneJob'])).status).toBe(200);
});

/**
 * The limiter counts per fixed wall-clock minute (as the DynamoDB one does): requests that straddle a
 * minute boundary land in two windows. Start a burst with at least 15 s of the window left.
 */
async function awayFromWindowEdge(): Promise<void> {
  const intoWindow = Date.now() % 60_000;
  if (intoWindow > 45_000) await new Promise((resolve) => setTimeout(resolve, 60_000 - intoWindow + 50));
}

afterAll(async () => {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const body = { query: 'q', documents: ['a', 'b'] };

describe('client API keys from the key store', () => {
  it('stores digests only, never the keys', () => {
    const text = readFileSync(join(dir, 'keys.json'), 'utf8');
    for (const key of Object.values(keys)) expect(text).not.toContain(key);
  });

  it('requires a key once any key exists', async () => {
    expect((await post('/v1/rerank', body)).status).toBe(401);
    expect((await post('/v1/rerank', body, 'rk-not-a-real-key')).status).toBe(401);
  });

  it('rate limits per key with 429, Retry-After and the dialect envelope', async () => {
    await awayFromWindowEdge();
    for (let i = 0; i < 3; i++) expect((await post('/v1/rerank', body, keys['limited'])).status).toBe(200);
    const limited = await post('/v1/rerank', body, keys['limited']);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(limited.body).toMatchObject({ error: { type: 'rate_limit_error', code: 'rate_limit_exceeded' } });
    const dashscope = await post(
      '/api/v1/services/rerank/text-rerank/text-rerank',
      { input: { query: 'q', documents: ['a'] } },
      keys['limited'],
    );
    expect(dashscope.status).toBe(429);
    expect(dashscope.body).toMatchObject({ code: 'Throttling' });
  });

  it('limits concurrent jobs per key and frees the slot when the job ends', async () => {
    const documents = Array.from({ length: 120 }, (_, i) => `document ${i}`);
    const first = await post('/v1/rerank/jobs', { query: 'q', documents, batch_size: 1 }, keys['oneJob']);
    expect(first.status).toBe(202);
    const second = await post('/v1/rerank/jobs', { query: 'q', documents: ['a'] }, keys['oneJob']);
    expect(second.status).toBe(429);
    expect((second.body['error'] as { message: string }).message).toContain('1 jobs running');
    let status = 'running';
    for (let i = 0; i < 300 && status === 'running'; i++) {
      await new Promise((r) => setTimeout(r, 100));
      const res = await fetch(`${server.url}${first.body['poll_url'] as string}`, {
        headers: { authorization: `Bearer ${keys['oneJob']}` },
      });
      status = ((await res.json()) as { status: string }).status;
    }
    expect(status).toBe('succeeded');
    expect((await post('/v1/rerank/jobs', { query: 'q', documents: ['a'] }, keys['oneJob'])).status).toBe(202);
  });

  it('refuses a key revoked while the server runs', async () => {
    const records = await store.list();
    const revoked = records.find((r) => r.name === 'revoked');
    expect(await store.revoke(revoked?.keyId ?? '')).toBe(true);
    expect((await post('/v1/rerank', body, keys['revoked'])).status).toBe(401);
  });
});
