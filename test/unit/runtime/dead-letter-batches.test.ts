import { describe, expect, it } from 'vitest';
import { keyIdOf } from '../../../shared/auth/api-key.js';
import { DEFAULT_BATCH_LIMITS } from '../../../shared/batches/batch-limits.js';
import type { BatchTask } from '../../../shared/batches/batch-model.js';
import type { Scorer } from '../../../shared/core/scorer.js';
import { deadLetterBatchesOver } from '../../../shared/runtime/dead-letter-batches.js';
import { createHybridScorer } from '../../../shared/scoring/hybrid/index.js';
import { createBm25Scorer } from '../../../shared/scoring/lexical/index.js';
import { batchTestRuntime, createBatchOf, type BatchTestRuntime } from '../../support/batch-test-runtime.js';
import { apiGatewayEvent } from '../../support/event-factory.js';
import { testConfig } from '../../support/test-runtime.js';

// A logit model that is cheap and deterministic (unit tests may fake the Scorer port), fused with the real BM25.
const model: Scorer = {
  id: 'len',
  scoreKind: 'logit',
  score: async (_query, documents) => ({ scores: documents.map((d) => (d.length % 17) / 3 - 2), tokens: documents.length }),
};
const bm25 = createBm25Scorer({ id: 'bm25' });
const hybrid = createHybridScorer({ id: 'len+bm25', model, lexical: bm25 });
const DOCS = ['python http library', 'the weather today', 'urllib for http', 'httpx async client', 'lemon cake'];
const RUNTIME_OPTIONS = {
  scorers: [hybrid, model, bm25],
  apiKeys: ['key-a', 'key-b'],
  limits: { maxQueryChars: 1000, maxDocumentChars: 1000 },
};

/**
 * The batch runtime with its models (what the worker's engine runs on), and the dead-letter consumer's recovery over
 * the same storage ports, whose `whole` engine is that runtime's: `loads` counts how often it was asked for, which is
 * the only way the recovery reaches a model (its own engine has none).
 */
function scenario(): { rt: BatchTestRuntime; loads: () => number; deadLetter: (task: BatchTask) => Promise<void> } {
  const rt = batchTestRuntime(RUNTIME_OPTIONS.scorers);
  const ports = { store: rt.store, queue: rt.queue, analysis: rt.analysis, files: rt.files, quota: rt.quota };
  const batches = { ...ports, limits: { ...DEFAULT_BATCH_LIMITS, chunkCost: 40 }, nowMs: () => rt.clock.nowMs };
  let loads = 0;
  const recovery = deadLetterBatchesOver(testConfig(RUNTIME_OPTIONS), batches, async () => {
    loads++;
    return rt.engine;
  });
  return { rt, loads: () => loads, deadLetter: (task) => recovery.taskDeadLettered(task, 'failed on every delivery') };
}

/** A one-line batch of the hybrid over five inline documents; its id. */
async function createBatch(rt: BatchTestRuntime): Promise<string> {
  const line = { custom_id: 'a', method: 'POST', url: '/v1/rerank', body: { model: 'len+bm25', query: 'python http', documents: DOCS } };
  return createBatchOf(rt, `${JSON.stringify(line)}\n`);
}

const take = (rt: BatchTestRuntime, kind: BatchTask['kind']): BatchTask => {
  const at = rt.queue.tasks.findIndex((task) => task.kind === kind);
  expect(at).toBeGreaterThanOrEqual(0);
  return rt.queue.tasks.splice(at, 1)[0] as BatchTask;
};

describe("the batch dead-letter recovery over the storage ports (the dead-letter function's engine)", () => {
  it('fails a dead-lettered plan without loading a model', async () => {
    const { rt, loads, deadLetter } = scenario();
    const id = await createBatch(rt);
    await deadLetter(take(rt, 'plan'));
    expect((await rt.store.get(id))?.status).toBe('failed');
    expect((await rt.quota.usage(keyIdOf('key-a'))).running_batches).toBe(0);
    expect(loads()).toBe(0);
  });

  it("fails a dead-lettered chunk's line that was never recorded, without loading a model", async () => {
    const { rt, loads, deadLetter } = scenario();
    const id = await createBatch(rt);
    await rt.queue.run((task) => task.kind === 'plan');
    await deadLetter(take(rt, 'chunk'));
    expect(await rt.store.countResults(id)).toEqual({ completed: 0, failed: 1 });
    expect((await rt.store.get(id))?.status).toBe('finalizing');
    expect(loads()).toBe(0);
  });

  it('fails a dead-lettered finalize without loading a model', async () => {
    const { rt, loads, deadLetter } = scenario();
    const id = await createBatch(rt);
    await rt.queue.run((task) => task.kind !== 'finalize');
    await deadLetter(take(rt, 'finalize'));
    expect((await rt.store.get(id))?.status).toBe('failed');
    expect((await rt.quota.usage(keyIdOf('key-a'))).running_batches).toBe(0);
    expect(loads()).toBe(0);
  });

  it("finishes a hybrid line whose chunk was recorded after all: only then are the models loaded, and the line's result is the route's", async () => {
    const { rt, loads, deadLetter } = scenario();
    const id = await createBatch(rt);
    await rt.queue.run((task) => task.kind === 'plan');
    // Every chunk is recorded, but keeping the line's result fails on every delivery of the chunk that completed it.
    const putResult = rt.store.putResult.bind(rt.store);
    rt.store.putResult = () => Promise.reject(new Error('injected: result write failed'));
    let failed: BatchTask | undefined;
    for (let task = rt.queue.tasks.shift(); task; task = rt.queue.tasks.shift()) {
      await rt.engine.handle(task).catch(() => (failed = task));
    }
    expect(failed?.kind).toBe('chunk');
    rt.store.putResult = putResult;
    await deadLetter(failed as BatchTask);
    expect(loads()).toBe(1);
    expect(await rt.store.countResults(id)).toEqual({ completed: 1, failed: 0 });
    const kept = JSON.parse((await rt.store.getResult(id, 1))?.jsonl ?? '{}') as { response: { body: { results: unknown } } };
    const sync = await rt.app.handle(
      apiGatewayEvent({
        method: 'POST',
        path: '/v1/rerank',
        json: { model: 'len+bm25', query: 'python http', documents: DOCS },
        headers: { authorization: 'Bearer key-a' },
      }),
    );
    expect(kept.response.body.results).toEqual((JSON.parse(sync.body as string) as { results: unknown }).results);
  });
});
