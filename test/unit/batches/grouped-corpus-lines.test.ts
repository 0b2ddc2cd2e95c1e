import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keyIdOf } from '../../../shared/auth/api-key.js';
import { shardsOf, type BatchChunkTask, type BatchTask } from '../../../shared/batches/batch-model.js';
import { decodeBatchTask, encodeTask } from '../../../shared/engine/task-codec.js';
import type { ByteRange } from '../../../shared/files/file-store.js';
import { GROUP_LEDGER_SCORES, groupLinesFor, ledgerScoresOfLine } from '../../../shared/batches/corpus-line-groups.js';
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

/** A model with no stored form (it scores texts only). */
const lengthModel: Scorer = {
  id: 'len',
  scoreKind: 'similarity',
  candidateRelative: false,
  score: async (_q, docs) => ({ scores: docs.map((d) => d.length), tokens: docs.length }),
};

let biEncoder: OnnxBiEncoder;
let scorers: Scorer[];
beforeAll(async () => {
  biEncoder = await loadOnnxBiEncoder({ id: 'use-lite', folder: USE_LITE_DIR, threads: 1 });
  const bm25 = createBm25Scorer({ id: 'bm25' });
  scorers = [createDefaultHybridScorer({ id: 'use-lite-bm25', model: biEncoder, lexical: bm25 }), biEncoder, bm25, lengthModel];
}, 60_000);
afterAll(async () => {
  await biEncoder?.close();
});

async function call(rt: BatchTestRuntime, method: string, path: string, json?: unknown) {
  const response = await rt.app.handle(
    apiGatewayEvent({ method, path, ...(json === undefined ? {} : { json }), headers: { authorization: 'Bearer key-a' } }),
  );
  return JSON.parse(response.body as string) as Loose;
}

const line = (customId: string, body: Loose) => JSON.stringify({ custom_id: customId, method: 'POST', url: '/v1/rerank', body });

/** Creates the batch and runs its plan task: the chunk tasks it sent are left queued. */
async function plan(rt: BatchTestRuntime, lines: readonly string[]): Promise<{ id: string; chunks: BatchChunkTask[] }> {
  const input = await rt.files.put(A, 'in.jsonl', 'batch', lines.join('\n') + '\n');
  const created = await call(rt, 'POST', '/v1/batches', { input_file_id: input.id, endpoint: '/v1/rerank', completion_window: '24h' });
  await rt.queue.run((t) => t.kind === 'plan');
  return { id: created['id'] as string, chunks: rt.queue.tasks.filter((t: BatchTask): t is BatchChunkTask => t.kind === 'chunk') };
}

async function outputOf(rt: BatchTestRuntime, id: string): Promise<{ batch: Loose; lines: Map<string, Loose>; bytes: number }> {
  const batch = await call(rt, 'GET', `/v1/batches/${id}`);
  const lines = new Map<string, Loose>();
  let bytes = 0;
  for (const fileId of [batch['output_file_id'], batch['error_file_id']]) {
    if (typeof fileId !== 'string') continue;
    const text = rt.files.text(fileId);
    bytes += Buffer.byteLength(text);
    for (const l of text.trim().split('\n')) {
      const parsed = JSON.parse(l) as Loose;
      lines.set(parsed['custom_id'] as string, parsed);
    }
  }
  return { batch, lines, bytes };
}

/** 60 short documents cut into many small shards (chunkCost 40), a task per shard, for bm25 lines. */
async function smallCorpus() {
  const rt = batchTestRuntime(scorers, { chunkCost: 40, corpusShardsPerTask: 1 });
  const corpus = await rt.files.put(
    A,
    'corpus.jsonl',
    'user_data',
    Array.from({ length: 60 }, (_, i) => JSON.stringify(`python http library number ${i} with some words`)).join('\n'),
  );
  return { rt, corpus };
}

function expectSameResults(got: Loose, want: readonly Loose[], label: string): void {
  const results = got['results'] as Loose[];
  expect(
    results.map((r) => r['index']),
    label,
  ).toEqual(want.map((r) => r['index']));
  results.forEach((r, k) => expect(Math.abs(r['relevance_score'] - want[k]!['relevance_score']), label).toBeLessThanOrEqual(1e-5));
}

/** Every output line answers as the same custom_id's line of the other run: results within 1e-5, the same usage. */
function expectSameLines(got: ReadonlyMap<string, Loose>, want: ReadonlyMap<string, Loose>, label: string): void {
  for (const [customId, line] of got) {
    const body = line['response']['body'] as Loose;
    const own = want.get(customId)!['response']['body'] as Loose;
    expectSameResults(body, own['results'] as Loose[], `${customId}: ${label}`);
    expect(body['usage'], customId).toEqual(own['usage']);
  }
}

describe('lines over one stored corpus are scored a group at a time, one pass per shard', () => {
  it('scores a span of shards in one task: each line records one chunk per span and answers as it does alone (real USE-lite)', async () => {
    const lines = (corpusId: string) => [
      ...queries.slice(0, 4).map((query, i) => line(`h${i}`, { model: 'use-lite-bm25', query, documents_file_id: corpusId, top_n: 5 })),
      line('bm25', { model: 'bm25', query: queries[5], documents_file_id: corpusId }),
    ];
    const runs = [];
    for (const limits of [{ corpusGroupLines: 1 }, { corpusGroupLines: 8, corpusShardsPerTask: 3 }]) {
      const rt = batchTestRuntime(scorers, { chunkCost: 2000, ...limits });
      const corpus = await rt.files.put(A, 'corpus.jsonl', 'user_data', documents.map((d) => JSON.stringify(d)).join('\n'));
      const planned = await plan(rt, lines(corpus.id));
      const chunkCount = (await rt.store.getRequest(planned.id, 1))?.chunkCount;
      await rt.queue.run();
      runs.push({ rt, chunks: planned.chunks, output: await outputOf(rt, planned.id), chunkCount });
    }
    const [alone, spanned] = runs as [(typeof runs)[number], (typeof runs)[number]];
    const shards = alone.chunks.filter((t) => t.line === 1).length;
    expect(shards).toBeGreaterThan(3);
    const spans = Math.ceil(shards / 3);
    // Two groups (the hybrid's four lines, bm25's one), a task per span each; every span but the last names 3 shards.
    expect(spanned.chunks).toHaveLength(2 * spans);
    for (const task of spanned.chunks) {
      expect(decodeBatchTask(encodeTask(task))).toEqual(task);
      const parts = shardsOf(task as BatchChunkTask & { corpusRange: ByteRange });
      expect(parts.length).toBe(task.chunkIndex < spans - 1 ? 3 : shards - 3 * (spans - 1));
      expect(parts.map((p) => p.count).reduce((a, b) => a + b)).toBe(task.count);
    }
    // A line counts (and records) one chunk per span.
    expect(spanned.chunkCount).toBe(spans);
    expect(alone.chunkCount).toBe(shards);
    expect(spanned.output.batch['request_counts']).toEqual({ total: 5, completed: 5, failed: 0 });
    expectSameLines(spanned.output.lines, alone.output.lines, 'spanned vs alone');
  }, 120_000);

  it('plans one task per shard for a group, and every line answers as it does alone and as the route does (real USE-lite)', async () => {
    const lines = [
      ...queries.slice(0, 5).map((query, i) => line(`h${i}`, { model: 'use-lite-bm25', query, documents_file_id: '$CORPUS', top_n: 5 })),
      line('bm25', { model: 'bm25', query: queries[5], documents_file_id: '$CORPUS', top_n: 5 }),
      // A model with no stored form: not grouped (its own tasks, scored from the texts).
      line('len', { model: 'len', query: queries[0], documents_file_id: '$CORPUS', top_n: 5 }),
    ];
    const runs: Record<
      string,
      { rt: BatchTestRuntime; chunks: BatchChunkTask[]; output: Awaited<ReturnType<typeof outputOf>>; corpusId: string }
    > = {};
    for (const [name, corpusGroupLines] of [
      ['grouped', 4],
      ['alone', 1],
    ] as const) {
      const rt = batchTestRuntime(scorers, { chunkCost: 2000, corpusGroupLines, corpusShardsPerTask: 1 });
      const corpus = await rt.files.put(A, 'corpus.jsonl', 'user_data', documents.map((d) => JSON.stringify(d)).join('\n'));
      const planned = await plan(
        rt,
        lines.map((l) => l.replace('$CORPUS', corpus.id)),
      );
      await rt.queue.run();
      runs[name] = { rt, chunks: planned.chunks, output: await outputOf(rt, planned.id), corpusId: corpus.id };
    }
    const { grouped, alone } = runs as Record<'grouped' | 'alone', (typeof runs)[string]>;
    const shards = alone.chunks.filter((t) => t.line === 1).length;
    expect(shards).toBeGreaterThan(2);
    // Lines 1-4 are one group (a task per shard names all four), line 5 is the hybrid's next group (alone at the
    // end of planning), line 6 bm25's group, line 7 its own chunks: 4 x the shards instead of 7 x.
    expect(alone.chunks).toHaveLength(7 * shards);
    expect(grouped.chunks).toHaveLength(4 * shards);
    expect(grouped.chunks.filter((t) => t.lines !== undefined).every((t) => t.lines!.join() === '1,2,3,4' && t.line === 1)).toBe(true);
    expect(grouped.chunks.filter((t) => t.lines !== undefined)).toHaveLength(shards);
    expect(grouped.chunks.filter((t) => t.line === 7 && t.lines === undefined)).toHaveLength(shards);

    expect(grouped.output.batch['request_counts']).toEqual({ total: 7, completed: 7, failed: 0 });
    expect(alone.output.batch['request_counts']).toEqual({ total: 7, completed: 7, failed: 0 });
    expectSameLines(grouped.output.lines, alone.output.lines, 'grouped vs alone');
    // The synchronous route over the same documents inline.
    for (const [i, query] of queries.slice(0, 5).entries()) {
      const sync = await call(grouped.rt, 'POST', '/v1/rerank', { model: 'use-lite-bm25', query, documents, top_n: 5 });
      expectSameResults(
        grouped.output.lines.get(`h${i}`)!['response']['body'] as Loose,
        sync['results'] as Loose[],
        `h${i}: grouped vs sync`,
      );
    }
    // The corpus is analysed once either way; the shards charged to the key are the same (output files aside).
    expect(grouped.rt.files.derivedNames(grouped.corpusId).length).toBeGreaterThan(0);
    const storedBeside = async (run: typeof grouped) => (await run.rt.quota.usage(A)).stored_bytes - run.output.bytes;
    expect(await storedBeside(grouped)).toBe(await storedBeside(alone));
  }, 120_000);

  it('scores a hand-made group of mixed lines (two models, one without a stored form) as each line alone', async () => {
    const mixed = (corpusId: string) => [
      line('h', { model: 'use-lite-bm25', query: queries[0], documents_file_id: corpusId, top_n: 5 }),
      line('b', { model: 'bm25', query: queries[1], documents_file_id: corpusId, top_n: 5 }),
      line('len', { model: 'len', query: queries[2], documents_file_id: corpusId, top_n: 5 }),
      line('h2', { model: 'use-lite-bm25', query: queries[3], documents_file_id: corpusId, top_n: 5 }),
    ];
    const outputs: Map<string, Loose>[] = [];
    for (const regroup of [false, true]) {
      const rt = batchTestRuntime(scorers, { chunkCost: 2000, corpusGroupLines: 1 });
      const corpus = await rt.files.put(A, 'corpus.jsonl', 'user_data', documents.map((d) => JSON.stringify(d)).join('\n'));
      const planned = await plan(rt, mixed(corpus.id));
      if (regroup) {
        // A task per shard naming all four lines (a planner groups by model; a worker must not rely on it).
        const byShard = planned.chunks.filter((t) => t.line === 1);
        rt.queue.tasks.splice(0, rt.queue.tasks.length, ...byShard.map((t) => ({ ...t, lines: [1, 2, 3, 4] })));
      }
      await rt.queue.run();
      const output = await outputOf(rt, planned.id);
      expect(output.batch['request_counts']).toEqual({ total: 4, completed: 4, failed: 0 });
      outputs.push(output.lines);
    }
    const [alone, grouped] = outputs as [Map<string, Loose>, Map<string, Loose>];
    expectSameLines(grouped, alone, 'hand-made group vs alone');
  }, 60_000);

  it('moves progress for every line of a group with each shard', async () => {
    const { rt, corpus } = await smallCorpus();
    const planned = await plan(rt, [
      line('a', { model: 'bm25', query: 'python http', documents_file_id: corpus.id, top_n: 3 }),
      line('b', { model: 'bm25', query: 'library words', documents_file_id: corpus.id, top_n: 3 }),
    ]);
    const shards = planned.chunks.length;
    expect(shards).toBeGreaterThan(4);
    expect(planned.chunks.every((t) => t.lines?.join() === '1,2')).toBe(true);
    for (let i = 0; i < shards - 1; i++) {
      const [task] = rt.queue.tasks.splice(
        rt.queue.tasks.findIndex((t) => t.kind === 'chunk'),
        1,
      );
      await rt.engine.handle(task!);
      const batch = await call(rt, 'GET', `/v1/batches/${planned.id}`);
      expect(batch['request_counts']).toEqual({ total: 2, completed: 0, failed: 0 });
      expect(batch['progress']).toMatchObject({ completed_chunks: 2 * (i + 1), total_chunks: 2 * shards });
    }
    await rt.queue.run();
    const done = await outputOf(rt, planned.id);
    expect(done.batch['request_counts']).toEqual({ total: 2, completed: 2, failed: 0 });
  });

  it('fails every line of a dead-lettered group with a reason (none lost), and the batch still ends', async () => {
    const { rt, corpus } = await smallCorpus();
    const planned = await plan(rt, [
      line('a', { model: 'bm25', query: 'python http', documents_file_id: corpus.id, top_n: 3 }),
      line('b', { model: 'bm25', query: 'library words', documents_file_id: corpus.id, top_n: 3 }),
      line('inline', { model: 'bm25', query: 'python', documents: ['python http', 'rust'] }),
      line('c', { model: 'bm25', query: 'number', documents_file_id: corpus.id, top_n: 3 }),
    ]);
    const group = planned.chunks.find((t) => t.lines?.join() === '1,2,4' && t.chunkIndex === 2)!;
    expect(group).toBeDefined();
    // Its other shards ran; this one failed every delivery.
    rt.queue.tasks.splice(rt.queue.tasks.indexOf(group), 1);
    await rt.queue.run();
    await rt.engine.taskDeadLettered(group, 'the task failed on every delivery');
    await rt.queue.run();
    const done = await outputOf(rt, planned.id);
    expect(done.batch['status']).toBe('completed');
    expect(done.batch['request_counts']).toEqual({ total: 4, completed: 1, failed: 3 });
    for (const [customId, n] of [
      ['a', 1],
      ['b', 2],
      ['c', 4],
    ] as const) {
      expect(done.lines.get(customId)!['error'], customId).toEqual({
        code: 'server_error',
        message: `line ${n}: scoring failed after retries`,
      });
    }
    expect(done.lines.get('inline')!['response']['status_code']).toBe(200);
    expect((await rt.quota.usage(A)).running_batches).toBe(0);
  });

  it('refuses a too-long corpus document to the lines of a group without truncate, and scores it cut for those with it', async () => {
    const rt = batchTestRuntime(scorers, { chunkCost: 40 });
    const texts = Array.from({ length: 30 }, (_, i) => `python http library number ${i}`);
    texts[17] = `python ${'long '.repeat(300)}`;
    const corpus = await rt.files.put(A, 'corpus.jsonl', 'user_data', texts.map((t) => JSON.stringify(t)).join('\n'));
    const planned = await plan(rt, [
      line('cut', { model: 'bm25', query: 'python', documents_file_id: corpus.id, top_n: 3, truncate: true }),
      line('whole', { model: 'bm25', query: 'python', documents_file_id: corpus.id, top_n: 3 }),
    ]);
    expect(planned.chunks.every((t) => t.lines?.join() === '1,2')).toBe(true);
    await rt.queue.run();
    const done = await outputOf(rt, planned.id);
    expect(done.batch['request_counts']).toEqual({ total: 2, completed: 1, failed: 1 });
    expect(done.lines.get('whole')!['error']).toMatchObject({ code: 'payload_too_large' });
    expect(done.lines.get('cut')!['response']['body']['results']).toHaveLength(3);
  });

  it("groups fewer lines over a large corpus, so a group's recorded scores stay bounded", () => {
    expect(groupLinesFor(50_000, 64)).toBe(64);
    expect(groupLinesFor(1_000_000, 64)).toBe(16);
    expect(groupLinesFor(1_000_000, 64) * 1_000_000).toBeLessThanOrEqual(GROUP_LEDGER_SCORES);
    expect(groupLinesFor(100_000_000, 64)).toBe(1);
    expect(groupLinesFor(10, 1)).toBe(1);
    // A line with a top_n records its shards' top_n, not every document: 64 lines a group over a million documents.
    expect(ledgerScoresOfLine(1_000_000, 1_000, 10)).toBe(10_000);
    expect(ledgerScoresOfLine(1_000_000, 1_000, undefined)).toBe(1_000_000);
    expect(ledgerScoresOfLine(50, 1, 100)).toBe(50);
    expect(groupLinesFor(ledgerScoresOfLine(1_000_000, 1_000, 10), 64)).toBe(64);
  });
});
