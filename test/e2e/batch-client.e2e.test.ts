import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RerankClient, type RerankBatch } from '../../shared/client/index.js';
import { readBodyCapped, toApiGatewayEvent, writeApiGatewayResult } from '../../shared/http/node-http-adapter.js';
import { createBm25Scorer } from '../../shared/scoring/lexical/index.js';
import { batchTestRuntime, type BatchTestRuntime } from '../support/batch-test-runtime.js';

/**
 * The client SDK's `batches` and `npm run batch` against a real HTTP server: ApiApp with `/v1/batches` (bm25), its
 * tasks pumped in the background, and the Files API over the same FileStore.
 */
const ROOT = resolve(import.meta.dirname, '../..');
let rt: BatchTestRuntime;
let server: Server;
let origin: string;
let pump: NodeJS.Timeout;
let scratch: string;

const DOCS = ['requests is an HTTP library for Python', 'a cake recipe', 'httpx is an async HTTP client for Python'];

beforeAll(async () => {
  rt = batchTestRuntime([createBm25Scorer({ id: 'bm25' })]);
  server = createServer((req, res) => {
    void (async () => {
      const body = (await readBodyCapped(req)) ?? Buffer.alloc(0);
      await writeApiGatewayResult(res, await rt.app.handle(toApiGatewayEvent(req, body)));
    })();
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  pump = setInterval(() => void rt.queue.run(), 5);
  scratch = mkdtempSync(join(tmpdir(), 'batch-client-'));
});

afterAll(async () => {
  clearInterval(pump);
  await new Promise((done) => server.close(done));
  rmSync(scratch, { recursive: true, force: true });
});

describe('client SDK batches', () => {
  it('creates from an array, waits with progress and iterates results by custom_id', async () => {
    const client = new RerankClient({ baseUrl: `${origin}/v1`, mode: 'openai', apiKey: 'key-a' });
    const batch = await client.batches.create(
      [
        { custom_id: 'good', body: { query: 'python http', documents: DOCS, top_n: 2 } },
        { custom_id: 'bad', body: { query: '', documents: DOCS } },
      ],
      { metadata: { from: 'client' } },
    );
    const seen: RerankBatch[] = [];
    const done = await client.batches.wait(batch, { onProgress: (b) => seen.push(b), initialDelayMs: 10 });
    expect(done).toMatchObject({ status: 'completed', request_counts: { total: 2, completed: 1, failed: 1 } });
    expect(seen.at(-1)?.status).toBe('completed');
    const results = new Map<string | undefined, unknown>();
    for await (const [customId, line] of client.batches.results(done)) results.set(customId, line);
    expect(results.get('good')).toMatchObject({
      response: { status_code: 200, body: { results: [{ index: 0 }, { index: 2 }] } },
      error: null,
    });
    expect(results.get('bad')).toMatchObject({ error: { code: 'invalid_request' } });
  });
});

describe('npm run batch', () => {
  it('submit --wait --out writes the results and the errors beside them, with plain progress lines off a terminal', async () => {
    const input = join(scratch, 'requests.jsonl');
    const out = join(scratch, 'results.jsonl');
    writeFileSync(
      input,
      [
        JSON.stringify({ custom_id: 'a', method: 'POST', url: '/v1/rerank', body: { query: 'python', documents: DOCS } }),
        JSON.stringify({ custom_id: 'b', method: 'POST', url: '/v2/rerank', body: { query: 'python', documents: DOCS } }),
      ].join('\n'),
    );
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        'scripts/ops/batch-cli/batch-cli.ts',
        'submit',
        input,
        '--wait',
        '--out',
        out,
        '--base-url',
        origin,
        '--key',
        'key-a',
      ],
      {
        cwd: ROOT,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const code = await new Promise<number | null>((done) => child.once('exit', done));
    expect([code, stderr]).toEqual([
      0,
      expect.stringMatching(/created batch_\w+[\s\S]*2\/2 lines \(1 failed\)[\s\S]*completed[\s\S]*wrote /),
    ]);
    expect(stderr).not.toContain('\r');
    expect((JSON.parse(stdout.trim()) as RerankBatch).status).toBe('completed');
    const results = readFileSync(out, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { custom_id: string });
    const errors = readFileSync(join(scratch, 'results.errors.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { custom_id: string; error: { code: string } });
    expect(results.map((r) => r.custom_id)).toEqual(['a']);
    expect(errors.map((e) => [e.custom_id, e.error.code])).toEqual([['b', 'mismatched_url']]);
  }, 60_000);
});
