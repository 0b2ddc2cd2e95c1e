import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readBodyCapped, toApiGatewayEvent, writeApiGatewayResult } from '../../shared/http/node-http-adapter.js';
import { createBm25Scorer } from '../../shared/scoring/lexical/index.js';
import { testRuntime } from '../support/test-runtime.js';

/** `npm run batch` when it cannot get going: no server at the URL, or a server that wants a key. */
const ROOT = resolve(import.meta.dirname, '../..');
let server: Server;
let origin: string;
let scratch: string;

beforeAll(async () => {
  const rt = testRuntime({ scorers: [createBm25Scorer({ id: 'bm25' })], open: false, batches: {} });
  await rt.keys.create('someone');
  server = createServer((req, res) => {
    void (async () => {
      const body = (await readBodyCapped(req)) ?? Buffer.alloc(0);
      await writeApiGatewayResult(res, await rt.app.handle(toApiGatewayEvent(req, body)));
    })();
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  scratch = mkdtempSync(join(tmpdir(), 'batch-cli-failures-'));
  writeFileSync(join(scratch, 'corpus.jsonl'), '"one document"\n');
});

afterAll(async () => {
  await new Promise((done) => server.close(done));
  rmSync(scratch, { recursive: true, force: true });
});

async function cli(args: readonly string[], env: Record<string, string> = {}): Promise<{ code: number | null; stderr: string }> {
  const { RERANK_KEY: _key, RERANK_BASE_URL: _url, ...inherited } = process.env;
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/ops/batch-cli/batch-cli.ts', ...args], {
    cwd: ROOT,
    env: { ...inherited, INIT_CWD: scratch, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const code = await new Promise<number | null>((done) => child.once('exit', done));
  return { code, stderr };
}

/** A port nothing listens on: one the system just handed out and took back. */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((done) => probe.listen(0, '127.0.0.1', done));
  const { port } = probe.address() as AddressInfo;
  await new Promise((done) => probe.close(done));
  return port;
}

describe('npm run batch, when it cannot get going', () => {
  it('with no server, names the URL it tried and how to start or point at one', async () => {
    const url = `http://127.0.0.1:${await closedPort()}`;
    const { code, stderr } = await cli(['upload', 'corpus.jsonl'], { RERANK_BASE_URL: url });
    expect(code).toBe(1);
    expect(stderr).toContain(`no server answered at ${url} (the URL from RERANK_BASE_URL)`);
    expect(stderr).toMatch(/npm start/);
    expect(stderr).toMatch(/--base-url URL or RERANK_BASE_URL=URL/);
  }, 60_000);

  it('refused for want of a key, names --key and RERANK_KEY', async () => {
    const missing = await cli(['upload', 'corpus.jsonl', '--base-url', origin]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/missing API key/);
    expect(missing.stderr).toMatch(/no key was given; pass it with --key <key> or RERANK_KEY=<key>/);
    const wrong = await cli(['status', 'batch_x', '--base-url', origin, '--key', `rk-${'Z'.repeat(40)}`]);
    expect(wrong.stderr).toMatch(/the key given was refused: check it; pass it with --key <key> or RERANK_KEY=<key>/);
  }, 60_000);
});
