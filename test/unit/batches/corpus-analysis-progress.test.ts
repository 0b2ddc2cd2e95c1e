import { describe, expect, it } from 'vitest';
import { InMemoryCorpusAnalysisLedger } from '../../../shared/adapters/memory/in-memory-corpus-analysis-ledger.js';
import { keyIdOf } from '../../../shared/auth/api-key.js';
import { DEFAULT_BATCH_LIMITS, type BatchLimits } from '../../../shared/batches/batch-limits.js';
import { shardsOf, type BatchChunkTask, type BatchTask } from '../../../shared/batches/batch-model.js';
import type { CorpusAnalysisLedger } from '../../../shared/batches/corpus-analysis-ledger.js';
import type { RerankBatch } from '../../../shared/client/index.js';
import { progressReporter } from '../../../scripts/ops/batch-cli/batch-progress.js';
import { createBm25Scorer } from '../../../shared/scoring/lexical/index.js';
import { apiGatewayEvent } from '../../support/event-factory.js';
import { batchTestRuntime, type BatchTestRuntime } from '../../support/batch-test-runtime.js';
import { openAiBatchSchemaErrors } from '../../support/openai-batch-schemas.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Loose = Record<string, any>;
const A = keyIdOf('key-a');
const DOCUMENTS = 60;

async function call(rt: BatchTestRuntime, method: string, path: string, json?: unknown): Promise<Loose> {
  const response = await rt.app.handle(
    apiGatewayEvent({ method, path, ...(json === undefined ? {} : { json }), headers: { authorization: 'Bearer key-a' } }),
  );
  return JSON.parse(response.body as string) as Loose;
}

/**
 * A corpus batch whose progress is read over HTTP after every write to the analysis ledger (the store port, wrapped):
 * what a client polling at those moments sees. `failReport` makes that report throw after it is kept (a worker
 * crashing after analysing some shards: its task is delivered again).
 */
async function observedBatch(options: { failReport?: number; documents?: number; limits?: Partial<BatchLimits> } = {}) {
  const documents = options.documents ?? DOCUMENTS;
  const inner = new InMemoryCorpusAnalysisLedger();
  const seen: Loose[] = [];
  let reports = 0;
  let batchId = '';
  const analysis: CorpusAnalysisLedger = {
    expect: (...args) => inner.expect(...args),
    read: (id) => inner.read(id),
    async report(...args) {
      await inner.report(...args);
      reports++;
      const batch = await call(rt, 'GET', `/v1/batches/${batchId}`);
      expect(openAiBatchSchemaErrors('Batch', batch)).toEqual([]);
      seen.push(batch['progress'] as Loose);
      if (reports === options.failReport) throw new Error('worker crashed after its report');
    },
  };
  // Short documents cut into shards of a few each (chunkCost 40), spans of 16 shards, a report every 5 documents.
  const rt = batchTestRuntime(
    [createBm25Scorer({ id: 'bm25' })],
    options.limits ?? { chunkCost: 40, corpusShardsPerTask: 16, analysisProgressDocuments: 5 },
    { analysis },
  );
  const corpus = await rt.files.put(
    A,
    'corpus.jsonl',
    'user_data',
    Array.from({ length: documents }, (_, i) => JSON.stringify(`python http library number ${i} with some words`)).join('\n'),
  );
  const lines = ['python http', 'library words'].map((query, i) =>
    JSON.stringify({
      custom_id: `q${i}`,
      method: 'POST',
      url: '/v1/rerank',
      body: { model: 'bm25', query, documents_file_id: corpus.id, top_n: 3 },
    }),
  );
  const input = await rt.files.put(A, 'in.jsonl', 'batch', lines.join('\n') + '\n');
  const created = await call(rt, 'POST', '/v1/batches', { input_file_id: input.id, endpoint: '/v1/rerank', completion_window: '24h' });
  batchId = created['id'] as string;
  await rt.queue.run((t) => t.kind === 'plan');
  return { rt, id: batchId, corpusId: corpus.id, seen, reports: () => reports };
}

/** Runs the chunk tasks one at a time as a worker takes them; a task that throws is delivered again. */
async function runChunks(rt: BatchTestRuntime): Promise<number> {
  let failures = 0;
  for (let at = rt.queue.tasks.findIndex((t) => t.kind === 'chunk'); at >= 0; at = rt.queue.tasks.findIndex((t) => t.kind === 'chunk')) {
    const [task] = rt.queue.tasks.splice(at, 1) as [BatchTask];
    try {
      await rt.engine.handle(task);
    } catch {
      failures++;
      rt.queue.tasks.unshift(task);
    }
  }
  return failures;
}

const nonDecreasing = (values: readonly number[]) => values.every((v, i) => i === 0 || v >= values[i - 1]!);

describe("a corpus batch's first analysis, as its progress", () => {
  it('says analysing_corpus with the documents analysed, and its fraction moves at every report while the corpus is analysed', async () => {
    const { rt, id, seen } = await observedBatch();
    const spans = rt.queue.tasks.filter((t): t is BatchChunkTask => t.kind === 'chunk');
    // One task per span for both lines (one group): the chunks alone would move twice over the whole analysis.
    expect(spans.length).toBe(2);
    const before = await call(rt, 'GET', `/v1/batches/${id}`);
    expect(before['progress']).toMatchObject({ phase: 'analysing_corpus', corpus_documents_analysed: 0, corpus_documents: DOCUMENTS });

    expect(await runChunks(rt)).toBe(0);
    const analysing = seen.filter((p) => p['phase'] === 'analysing_corpus');
    expect(new Set(analysing.map((p) => p['fraction'])).size).toBeGreaterThanOrEqual(3);
    expect(new Set(analysing.map((p) => p['corpus_documents_analysed'])).size).toBeGreaterThanOrEqual(3);
    expect(nonDecreasing(seen.map((p) => p['fraction']))).toBe(true);
    expect(nonDecreasing(seen.map((p) => p['corpus_documents_analysed']))).toBe(true);
    for (const p of analysing) expect(p['corpus_documents_analysed']).toBeLessThan(DOCUMENTS);
    // Every document analysed: the phase is scoring, whatever is left.
    expect(seen.at(-1)).toMatchObject({ phase: 'scoring', corpus_documents_analysed: DOCUMENTS, corpus_documents: DOCUMENTS });

    await rt.queue.run();
    const done = await call(rt, 'GET', `/v1/batches/${id}`);
    expect(done['status']).toBe('completed');
    expect(done['progress']).toEqual({ fraction: 1 });

    // `npm run batch` shown these batch objects a second apart: the phase, a measured documents/s, an ETA from it.
    const printed: string[] = [];
    let nowMs = 0;
    const reporter = progressReporter({ isTTY: false, write: (text: string) => printed.push(text) > 0 }, 0, () => nowMs);
    for (const progress of seen) {
      nowMs += 1_000;
      reporter.update({ ...(before as unknown as RerankBatch), status: 'in_progress', progress } as RerankBatch);
    }
    const analysingLines = printed.filter((text) => text.includes('analysing corpus (once per corpus and model)'));
    expect(analysingLines.length).toBe(analysing.length);
    for (const text of analysingLines) {
      expect(text).toMatch(/ \d+\/60 documents \(\d+%\) {2}\d+\.\d documents\/s {2}ETA \d+ s {2}in_progress/);
      expect(text).not.toContain(' 0.0 ');
    }
  });

  it('moves at least every 1,000 documents analysed with the default limits, inside a shard of up to 1,024', async () => {
    const documents = 3_500;
    const { rt, seen } = await observedBatch({ documents, limits: { chunkCost: DEFAULT_BATCH_LIMITS.chunkCost } });
    const spans = rt.queue.tasks.filter((t): t is BatchChunkTask => t.kind === 'chunk');
    const shards = spans.flatMap((span) => shardsOf({ ...span, corpusRange: span.corpusRange! }));
    // Shards longer than 1,000 documents: a report per shard alone would step past 1,000.
    expect(Math.max(...shards.map((shard) => shard.count))).toBeGreaterThan(1_000);

    expect(await runChunks(rt)).toBe(0);
    const analysed = [0, ...seen.map((p) => p['corpus_documents_analysed'] as number)];
    expect(analysed.at(-1)).toBe(documents);
    expect(nonDecreasing(analysed)).toBe(true);
    const steps = analysed.slice(1).map((value, i) => value - analysed[i]!);
    expect(Math.max(...steps)).toBeLessThanOrEqual(1_000);
    // Bounded writes: about one per 1,000 documents at most twice that, plus one per span.
    expect(seen.length).toBeLessThanOrEqual(Math.ceil(documents / 250) + spans.length);
    const fractions = seen.filter((p) => p['phase'] === 'analysing_corpus').map((p) => p['fraction'] as number);
    expect(new Set(fractions).size).toBeGreaterThanOrEqual(3);
  });

  it('never goes back when a task dies after analysing part of its span and is delivered again (its shards read back)', async () => {
    const { rt, id, seen, reports } = await observedBatch({ failReport: 2 });
    expect(await runChunks(rt)).toBe(1);
    expect(reports()).toBeGreaterThan(3);
    expect(nonDecreasing(seen.map((p) => p['corpus_documents_analysed']))).toBe(true);
    expect(nonDecreasing(seen.map((p) => p['fraction']))).toBe(true);
    expect(seen.at(-1)).toMatchObject({ corpus_documents_analysed: DOCUMENTS });
    await rt.queue.run();
    expect((await call(rt, 'GET', `/v1/batches/${id}`))['status']).toBe('completed');
  });

  it('shows a corpus analysed before as read back, not as work: the fraction is the chunks alone', async () => {
    const first = await observedBatch();
    await first.rt.queue.run();
    // The same corpus and model in a second batch of the same runtime: the shards are stored.
    const input = await first.rt.files.put(
      A,
      'again.jsonl',
      'batch',
      JSON.stringify({
        custom_id: 'again',
        method: 'POST',
        url: '/v1/rerank',
        body: { model: 'bm25', query: 'python', documents_file_id: first.corpusId, top_n: 3 },
      }) + '\n',
    );
    const created = await call(first.rt, 'POST', '/v1/batches', {
      input_file_id: input.id,
      endpoint: '/v1/rerank',
      completion_window: '24h',
    });
    await first.rt.queue.run((t) => t.kind === 'plan');
    const [span] = first.rt.queue.tasks.splice(
      first.rt.queue.tasks.findIndex((t) => t.kind === 'chunk'),
      1,
    ) as [BatchTask];
    await first.rt.engine.handle(span);
    const progress = (await call(first.rt, 'GET', `/v1/batches/${created['id']}`))['progress'] as Loose;
    expect(progress['corpus_documents_analysed']).toBeGreaterThan(0);
    expect(progress['fraction']).toBeCloseTo(progress['completed_chunks'] / progress['total_chunks'], 4);
  });
});
