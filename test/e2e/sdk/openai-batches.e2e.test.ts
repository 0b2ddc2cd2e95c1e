import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import OpenAI, { toFile } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keyIdOf } from '../../../shared/auth/api-key.js';
import type { Scorer } from '../../../shared/core/scorer.js';
import { readBodyCapped, toApiGatewayEvent, writeApiGatewayResult } from '../../../shared/http/node-http-adapter.js';
import { loadFolderScorer } from '../../../shared/scoring/load-folder-scorer.js';
import { batchTestRuntime, type BatchTestRuntime } from '../../support/batch-test-runtime.js';
import { openAiBatchSchemaErrors } from '../../support/openai-batch-schemas.js';

/**
 * The official `openai` SDK's files and batches calls against a real HTTP server running ApiApp with `/v1/batches`,
 * the real TinyBERT fixture (ONNX) and a hand-driven task queue, and `/v1/files` over the same FileStore (the Files
 * API on `npm start` itself: test/e2e/sdk/openai-files.e2e.test.ts).
 */
const ROOT = resolve(import.meta.dirname, '../../..');
const DOCS = [
  'urllib is a built-in Python library for HTTP requests',
  'the weather in Lisbon is mild in winter',
  'requests is a popular third-party HTTP library for Python',
  'httpx is a modern async HTTP client for Python',
];

let scorer: Scorer;
let rt: BatchTestRuntime;
let server: Server;
let baseURL: string;
const client = (key: string) => new OpenAI({ apiKey: key, baseURL, maxRetries: 0 });
const endpoint = '/v1/rerank' as unknown as '/v1/chat/completions';

beforeAll(async () => {
  scorer = await loadFolderScorer({ id: 'tinybert-l2-fixture', folder: resolve(ROOT, 'models/tinybert-l2-fixture'), threads: 1 });
  rt = batchTestRuntime([scorer]);
  server = createServer((req, res) => {
    void (async () => {
      const body = (await readBodyCapped(req)) ?? Buffer.alloc(0);
      await writeApiGatewayResult(res, await rt.app.handle(toApiGatewayEvent(req, body)));
    })();
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
}, 60_000);

afterAll(async () => {
  await new Promise((done) => server.close(done));
  await scorer.close?.();
});

async function inputFile(lines: unknown[]): Promise<string> {
  return (await rt.files.put(keyIdOf('key-a'), 'requests.jsonl', 'batch', lines.map((l) => JSON.stringify(l)).join('\n'))).id;
}

describe('openai SDK: batches', () => {
  it('create, retrieve and list; every output line scores as the sync route within 1e-6', async () => {
    const openai = client('key-a');
    const bodies = [
      { query: 'python http library', documents: DOCS },
      { query: 'weather in winter', documents: DOCS, top_n: 2, return_documents: true },
    ];
    const jsonl = bodies.map((body, i) => JSON.stringify({ custom_id: `q${i}`, method: 'POST', url: '/v1/rerank', body })).join('\n');
    const uploaded = await openai.files.create({ file: await toFile(Buffer.from(jsonl), 'requests.jsonl'), purpose: 'batch' });
    const input = uploaded.id;
    const created = await openai.batches.create({ input_file_id: input, endpoint, completion_window: '24h', metadata: { run: 'sdk' } });
    expect(created).toMatchObject({ object: 'batch', status: 'validating', metadata: { run: 'sdk' } });
    expect(openAiBatchSchemaErrors('Batch', created)).toEqual([]);

    await rt.queue.run();
    const done = await openai.batches.retrieve(created.id);
    expect(done).toMatchObject({ status: 'completed', request_counts: { total: 2, completed: 2, failed: 0 } });
    const listed = [];
    for await (const batch of openai.batches.list({ limit: 1 })) listed.push(batch.id);
    expect(listed).toContain(created.id);

    const content = await (await openai.files.content(done.output_file_id as string)).text();
    const lines = content
      .trim()
      .split('\n')
      .map(
        (l) =>
          JSON.parse(l) as {
            custom_id: string;
            response: { body: { results: { index: number; relevance_score: number; document?: unknown }[] } };
          },
      );
    for (const [i, body] of bodies.entries()) {
      const sync = await fetch(`${baseURL}/rerank`, {
        method: 'POST',
        headers: { authorization: 'Bearer key-a', 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      const expected = ((await sync.json()) as { results: { index: number; relevance_score: number; document?: unknown }[] }).results;
      const got = lines.find((l) => l.custom_id === `q${i}`)?.response.body.results ?? [];
      expect(got.map((r) => [r.index, r.document])).toEqual(expected.map((r) => [r.index, r.document]));
      got.forEach((r, k) => expect(Math.abs(r.relevance_score - (expected[k]?.relevance_score as number))).toBeLessThanOrEqual(1e-6));
    }
  });

  it('cancel; another key gets 404 (NotFoundError) for the batch', async () => {
    const input = await inputFile([{ custom_id: 'x', method: 'POST', url: '/v1/rerank', body: { query: 'q', documents: DOCS } }]);
    const created = await client('key-a').batches.create({ input_file_id: input, endpoint, completion_window: '24h' });
    await expect(client('key-b').batches.retrieve(created.id)).rejects.toBeInstanceOf(OpenAI.NotFoundError);
    await expect(client('key-b').batches.cancel(created.id)).rejects.toBeInstanceOf(OpenAI.NotFoundError);
    const cancelling = await client('key-a').batches.cancel(created.id);
    expect(cancelling.status).toBe('cancelling');
    await rt.queue.run();
    const cancelled = await client('key-a').batches.retrieve(created.id);
    expect(cancelled).toMatchObject({ status: 'cancelled', request_counts: { total: 0, completed: 0, failed: 0 } });
  });

  it('a bad line reaches the error file through the SDK-created batch; a bad create is a BadRequestError', async () => {
    const input = await inputFile([{ custom_id: 'bad', method: 'POST', url: '/v1/rerank', body: { query: 'q' } }]);
    const created = await client('key-a').batches.create({ input_file_id: input, endpoint, completion_window: '24h' });
    await rt.queue.run();
    const done = await client('key-a').batches.retrieve(created.id);
    expect(done.request_counts).toEqual({ total: 1, completed: 0, failed: 1 });
    expect(rt.files.text(done.error_file_id as string)).toMatch(/"custom_id":"bad".*"message":"line 1: /);
    await expect(
      client('key-a').batches.create({ input_file_id: input, endpoint: '/v1/embeddings', completion_window: '24h' }),
    ).rejects.toBeInstanceOf(OpenAI.BadRequestError);
  });
});
