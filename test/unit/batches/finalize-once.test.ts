import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { InProcessTaskQueue } from '../../../shared/adapters/in-process/in-process-task-queue.js';
import { InMemoryBatchStore } from '../../../shared/adapters/memory/in-memory-batch-store.js';
import { InMemoryQuotaLedger } from '../../../shared/adapters/memory/in-memory-quota-ledger.js';
import type { BatchEngine } from '../../../shared/batches/batch-engine.js';
import { DEFAULT_BATCH_LIMITS } from '../../../shared/batches/batch-limits.js';
import type { BatchTask } from '../../../shared/batches/batch-model.js';
import { RerankService } from '../../../shared/core/rerank-service.js';
import { createScorerRegistry } from '../../../shared/core/scorer-registry.js';
import { createBatchEngine } from '../../../shared/runtime/create-batch-engine.js';
import { engineTaskHandlers } from '../../../shared/runtime/engine-task-handlers.js';
import { createBm25Scorer } from '../../../shared/scoring/lexical/index.js';
import { InMemoryFileStore } from '../../support/in-memory-file-store.js';
import { gatedScorer, watchedWorker, WatchedFiles } from '../../support/finalize-once.js';
import { batchTestRuntime } from '../../support/batch-test-runtime.js';
import { keyIdOf } from '../../../shared/auth/api-key.js';

/**
 * A batch whose end is claimed while many of its lines are still being scored - it passes its key's stored-bytes quota,
 * or its completion window ends - is finalized once: every line that finishes after the claim used to send the batch
 * another finalize task, and `npm start`'s queue ran them all at once, each writing the whole output (17 copies, 518 MiB
 * listed under a 32 MiB quota) and failing on the result lines the winner had dropped.
 */
const OWNER = 'finalize-once-key';
const RUNNERS = 12;
const LINES = 30;
const padding = 'ranking words for a long returned document '.repeat(9);
const lines = Array.from({ length: LINES }, (_, i) =>
  JSON.stringify({
    custom_id: `line-${i}`,
    method: 'POST',
    url: '/v1/rerank',
    body: {
      model: 'bm25',
      query: `python ranking ${i}`,
      documents: ['python', 'ranking', 'queue', 'lambda'].map((w) => `${w} ${padding}`),
      return_documents: true,
    },
  }),
);

const spills: string[] = [];
afterEach(() => {
  for (const dir of spills.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function setup(storedBytes?: number) {
  const clock = { nowMs: Date.UTC(2026, 0, 1) };
  const watched = new WatchedFiles(new InMemoryFileStore({ now: () => Math.floor(clock.nowMs / 1000) }), OWNER);
  const gate = gatedScorer(createBm25Scorer({ id: 'bm25' }));
  const registry = createScorerRegistry([gate.scorer]);
  const queue = new InProcessTaskQueue<BatchTask>({ concurrency: RUNNERS, batchSize: 1, maxReceiveCount: 3, retryDelayMs: 1 });
  // Every result line waits on disk, as npm start keeps large ones: a finalizer reading lines another dropped fails.
  const spill = mkdtempSync(join(tmpdir(), 'finalize-once-'));
  spills.push(spill);
  const engine: BatchEngine = createBatchEngine({
    store: new InMemoryBatchStore({ spill: { dir: spill, aboveBytes: 0 } }),
    files: watched.files,
    queue,
    scorerFor: (id) => registry.get(id),
    limits: DEFAULT_BATCH_LIMITS,
    quota: new InMemoryQuotaLedger(),
    ...(storedBytes === undefined ? {} : { storage: { stored_bytes: storedBytes } }),
    service: new RerankService({ catalog: registry }),
    plan: { syncMaxDocuments: 256, syncMaxChars: 2_000_000, defaultBatchSize: 8 },
    requestLimits: { maxDocuments: 1_000, maxBatchSize: 100, maxQueryChars: 1_000, maxDocumentChars: 10_000 },
    nowMs: () => clock.nowMs,
  });
  const handlers = engineTaskHandlers({ batches: async () => engine });
  const counted = watchedWorker(handlers.worker);
  queue.attach(counted.worker, handlers.deadLetter);
  const start = async () => {
    const input = await watched.files.openWriter({ ownerKeyId: OWNER, filename: 'in.jsonl', purpose: 'batch', maxBytes: 1 << 24 });
    await input.write(Buffer.from(lines.join('\n') + '\n'));
    const file = await input.close();
    const created = await engine.create(OWNER, { inputFileId: file.id, endpoint: '/v1/rerank', completionWindow: '24h' });
    // Every runner holds a line at the gate: the claim comes while they are in flight.
    await gate.waiting(RUNNERS);
    return created.batch.id;
  };
  const text = (id: string | undefined) => (id === undefined ? '' : (watched.files as InMemoryFileStore).text(id));
  return { engine, queue, watched, gate, clock, counted, start, text };
}

describe('a batch whose end is claimed with many lines in flight is finalized once', () => {
  it('past its quota: one output, the listed files within the quota plus one line, no finalize delivery failing', async () => {
    const quota = 6_000;
    const rt = setup(quota);
    const id = await rt.start();
    rt.gate.open();
    await rt.queue.idle();
    const batch = await rt.engine.find(id, OWNER);
    expect(batch?.batch).toMatchObject({ status: 'failed', errors: [{ code: 'quota_exceeded' }] });
    expect(rt.watched.writersOf(id)).toEqual({ output: 1, error: 1 });
    expect(rt.counted.failures()).toBe(0);
    const output = rt.text(batch?.batch.outputFileId).split('\n').filter(Boolean);
    const errors = rt.text(batch?.batch.errorFileId).split('\n').filter(Boolean);
    expect(output.length + errors.length).toBe(LINES);
    const longestLine = Math.max(...output.map((l) => Buffer.byteLength(l) + 1));
    expect(rt.watched.peakListedBytes).toBeLessThanOrEqual(quota + longestLine);
  });

  it('past its completion window: each file written once, no finalize delivery failing', async () => {
    const rt = setup();
    const id = await rt.start();
    rt.clock.nowMs += (DEFAULT_BATCH_LIMITS.completionWindowSeconds + 1) * 1000;
    // The finalizer waits until every chunk task has run: the lines in flight end while the batch is `finalizing`.
    rt.counted.holdFinalizes();
    expect(await rt.engine.expireDue()).toBe(1);
    rt.gate.open();
    await rt.counted.chunksDone(LINES);
    rt.counted.releaseFinalizes();
    await rt.queue.idle();
    const batch = await rt.engine.find(id, OWNER);
    expect(batch?.batch.status).toBe('expired');
    // Each file the batch names was written once (one whose lines all finished has no error file).
    expect(rt.watched.writersOf(id)).toEqual({ output: batch?.batch.outputFileId ? 1 : 0, error: batch?.batch.errorFileId ? 1 : 0 });
    expect(rt.counted.failures()).toBe(0);
    const errors = rt.text(batch?.batch.errorFileId).split('\n').filter(Boolean);
    expect(errors.some((l) => l.includes('batch_expired'))).toBe(true);
    expect(batch?.counts).toMatchObject({ total: LINES });
  });
});

describe('the finalize lease', () => {
  const request = JSON.stringify({ custom_id: 'a', method: 'POST', url: '/v1/rerank', body: { query: 'q', documents: ['a', 'b'] } });

  async function claimedBatch() {
    const rt = batchTestRuntime([createBm25Scorer({ id: 'bm25' })]);
    const owner = keyIdOf('key-a');
    const input = await rt.files.put(owner, 'in.jsonl', 'batch', request + '\n');
    const { batch } = await rt.engine.create(owner, { inputFileId: input.id, endpoint: '/v1/rerank', completionWindow: '24h' });
    await rt.queue.run((t) => t.kind !== 'finalize');
    // Its end is claimed; the one finalize task the claim sent is the test's to run, lose or hold back.
    expect(rt.queue.tasks.splice(0)).toEqual([{ kind: 'finalize', batchId: batch.id }]);
    return { rt, owner, id: batch.id, now: () => Math.floor(rt.clock.nowMs / 1000) };
  }

  it('makes a finalize delivered while another finalizer holds the batch do nothing, and not fail', async () => {
    const { rt, owner, id, now } = await claimedBatch();
    expect(await rt.store.leaseFinalize(id, { owner: 'another-finalizer', until: now() + 600 }, now())).toBeDefined();
    await rt.engine.handle({ kind: 'finalize', batchId: id });
    expect((await rt.engine.find(id, owner))?.batch.status).toBe('finalizing');
    expect((await rt.files.list(owner, { limit: 10, purpose: 'batch_output' })).files).toEqual([]);
    // Its lease given up (that finalizer failed), the next delivery ends the batch.
    await rt.store.leaseFinalize(id, { owner: 'another-finalizer', until: now() }, now());
    await rt.engine.handle({ kind: 'finalize', batchId: id });
    expect((await rt.engine.find(id, owner))?.batch.status).toBe('completed');
  });

  it('lets the sweep send a lost finalize again only once no live lease holds the batch', async () => {
    const { rt, owner, id, now } = await claimedBatch();
    const lease = DEFAULT_BATCH_LIMITS.finalizeLeaseSeconds;
    // A finalizer holds it past the claim's age at which a lost send is assumed.
    await rt.store.leaseFinalize(id, { owner: 'slow-finalizer', until: now() + 2 * lease }, now());
    rt.clock.nowMs += (lease + 60) * 1000;
    await rt.engine.expireDue();
    expect(rt.queue.tasks).toEqual([]);
    rt.clock.nowMs += lease * 1000;
    await rt.engine.expireDue();
    expect(rt.queue.tasks).toEqual([{ kind: 'finalize', batchId: id }]);
    await rt.queue.run();
    expect((await rt.engine.find(id, owner))?.batch.status).toBe('completed');
  });

  it('sends the finalizer of a claim whose answer was lost (the write applied, the call failed)', async () => {
    const rt = batchTestRuntime([createBm25Scorer({ id: 'bm25' })]);
    const owner = keyIdOf('key-a');
    const input = await rt.files.put(owner, 'in.jsonl', 'batch', request + '\n');
    const { batch } = await rt.engine.create(owner, { inputFileId: input.id, endpoint: '/v1/rerank', completionWindow: '24h' });
    const update = rt.store.update.bind(rt.store);
    rt.store.update = async (...args) => {
      const applied = await update(...args);
      if (args[2].status === 'finalizing') throw new Error('the answer to the claim was lost');
      return applied;
    };
    await rt.queue.run();
    expect((await rt.engine.find(batch.id, owner))?.batch.status).toBe('completed');
  });
});
