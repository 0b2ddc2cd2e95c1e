import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keyIdOf } from '../../../shared/auth/api-key.js';
import type { Scorer } from '../../../shared/core/scorer.js';
import { loadOnnxBiEncoder, type OnnxBiEncoder } from '../../../shared/scoring/bi-encoder/index.js';
import { createDefaultHybridScorer } from '../../../shared/scoring/hybrid/index.js';
import { createBm25Scorer } from '../../../shared/scoring/lexical/index.js';
import { apiGatewayEvent } from '../../support/event-factory.js';
import { batchTestRuntime, type BatchTestRuntime } from '../../support/batch-test-runtime.js';
import { USE_LITE_DIR } from '../scoring/bi-encoder/use-lite-golden.js';
import { debianEvalSet } from '../../support/debian-eval-set.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Loose = Record<string, any>;
const A = keyIdOf('key-a');

const evalSet = debianEvalSet();
// Cut under the test runtime's 1,000-character document limit, so the inline request below takes them as they are.
const documents = evalSet.documents.slice(0, 100).map((d) => d.slice(0, 900));
const queries = evalSet.queries.slice(0, 6);

let biEncoders: OnnxBiEncoder[] = [];
const loadModels = async (): Promise<{ biEncoder: OnnxBiEncoder; scorers: Scorer[] }> => {
  const biEncoder = await loadOnnxBiEncoder({ id: 'use-lite', folder: USE_LITE_DIR, threads: 1 });
  biEncoders.push(biEncoder);
  const bm25 = createBm25Scorer({ id: 'bm25' });
  return { biEncoder, scorers: [createDefaultHybridScorer({ id: 'use-lite-bm25', model: biEncoder, lexical: bm25 }), biEncoder, bm25] };
};
let first: Awaited<ReturnType<typeof loadModels>>;
beforeAll(async () => {
  first = await loadModels();
}, 60_000);
afterAll(async () => {
  await Promise.all(biEncoders.map((b) => b.close()));
  biEncoders = [];
});

async function call(rt: BatchTestRuntime, method: string, path: string, json?: unknown) {
  const response = await rt.app.handle(
    apiGatewayEvent({ method, path, ...(json === undefined ? {} : { json }), headers: { authorization: 'Bearer key-a' } }),
  );
  return JSON.parse(response.body as string) as Loose;
}

async function runBatch(rt: BatchTestRuntime, corpusId: string, lines: readonly string[]): Promise<Loose[]> {
  const input = lines.map((query, i) =>
    JSON.stringify({
      custom_id: `q${i}`,
      method: 'POST',
      url: '/v1/rerank',
      body: { model: 'use-lite-bm25', query, documents_file_id: corpusId, top_n: 5 },
    }),
  );
  const file = await rt.files.put(A, 'in.jsonl', 'batch', input.join('\n') + '\n');
  const created = await call(rt, 'POST', '/v1/batches', { input_file_id: file.id, endpoint: '/v1/rerank', completion_window: '24h' });
  await rt.queue.run((t) => t.kind === 'plan');
  // The lines are one group: each shard is one task for all of them.
  expect(rt.queue.tasks.every((t) => t.kind === 'chunk' && t.lines?.length === lines.length)).toBe(true);
  await rt.queue.run();
  const done = await call(rt, 'GET', `/v1/batches/${created['id']}`);
  expect(done['request_counts']).toEqual({ total: lines.length, completed: lines.length, failed: 0 });
  return rt.files
    .text(done['output_file_id'])
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Loose);
}

describe('batches over a corpus with the default model (real USE-lite): analysed once, then reused', () => {
  it('encodes the corpus once; a second batch and a restarted service over the same files encode only their queries', async () => {
    const rt = batchTestRuntime(first.scorers, { chunkCost: 2000 });
    const corpus = await rt.files.put(A, 'corpus.jsonl', 'user_data', documents.map((d) => JSON.stringify(d)).join('\n'));

    const before = first.biEncoder.embeddingStats.encoded;
    const firstOutput = await runBatch(rt, corpus.id, queries.slice(0, 2));
    expect(first.biEncoder.embeddingStats.encoded - before).toBe(documents.length + 2);
    expect(rt.files.derivedNames(corpus.id).length).toBeGreaterThan(1);

    // Each line answers as the route answers the same documents inline, scores within 1e-5.
    for (const [i, line] of firstOutput.entries()) {
      const sync = await call(rt, 'POST', '/v1/rerank', {
        model: 'use-lite-bm25',
        query: queries[Number(String(line['custom_id']).slice(1))],
        documents,
        top_n: 5,
      });
      expect(sync['results'], JSON.stringify(sync).slice(0, 300)).toBeDefined();
      const results = line['response']['body']['results'] as { index: number; relevance_score: number }[];
      expect(
        results.map((r) => r.index),
        `line ${i}`,
      ).toEqual(sync['results'].map((r: Loose) => r['index']));
      results.forEach((r, k) => expect(Math.abs(r.relevance_score - sync['results'][k]['relevance_score'])).toBeLessThanOrEqual(1e-5));
      expect(line['response']['body']['usage']).toBeDefined();
    }

    const again = first.biEncoder.embeddingStats.encoded;
    await runBatch(rt, corpus.id, queries.slice(2, 4));
    expect(first.biEncoder.embeddingStats.encoded - again).toBe(2);

    // A restart: a new runtime and engine with a freshly loaded model, over the same stored files.
    const restarted = await loadModels();
    const rt2 = batchTestRuntime(restarted.scorers, { chunkCost: 2000 }, { files: rt.files });
    await runBatch(rt2, corpus.id, queries.slice(4, 6));
    expect(restarted.biEncoder.embeddingStats.encoded).toBe(2);

    // Deleting the corpus deletes what was stored of it.
    const deleted = await rt.app.handle(
      apiGatewayEvent({ method: 'DELETE', path: `/v1/files/${corpus.id}`, headers: { authorization: 'Bearer key-a' } }),
    );
    expect(deleted.statusCode).toBe(200);
    expect(rt.files.derivedNames(corpus.id)).toEqual([]);
  }, 120_000);
});
