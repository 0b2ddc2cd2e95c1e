import { describe, expect, it } from 'vitest';
import { InProcessTaskQueue } from '../../../shared/adapters/in-process/in-process-task-queue.js';
import { engineTaskHandlers } from '../../../shared/runtime/engine-task-handlers.js';
import { InMemoryBatchStore } from '../../../shared/adapters/memory/in-memory-batch-store.js';
import type { BatchEngine } from '../../../shared/batches/batch-engine.js';
import { DEFAULT_BATCH_LIMITS } from '../../../shared/batches/batch-limits.js';
import { isTerminal, type BatchTask } from '../../../shared/batches/batch-model.js';
import type { BatchStore } from '../../../shared/batches/batch-store.js';
import type { BatchTaskQueue } from '../../../shared/batches/batch-task-queue.js';
import { RerankService } from '../../../shared/core/rerank-service.js';
import type { Scorer } from '../../../shared/core/scorer.js';
import { createScorerRegistry } from '../../../shared/core/scorer-registry.js';
import { createBatchEngine } from '../../../shared/runtime/create-batch-engine.js';
import { createBm25Scorer } from '../../../shared/scoring/lexical/index.js';
import { hashSeed, seededRandom } from '../../../scripts/eval/seeded-random.js';
import { InMemoryFileStore } from '../../support/in-memory-file-store.js';
import { HANG_CEILING_MS, waitForProgress } from '../../../scripts/support/wait-for-progress.js';

/**
 * The batch engine under faults, as SQS + Lambda + DynamoDB produce them: scoring that crashes, store writes that fail
 * before they happen and acknowledgements lost after they happened (a throttled or timed-out call), tasks delivered
 * twice, and a poison line whose scoring fails on every delivery. Whatever the faults, every input line must end in the
 * output file or the error file exactly once, and every line that completed must equal the fault-free run's line.
 */
const OWNER = 'chaos-owner';
const WORDS = 'neural ranking search python queue lambda gradient library panda bamboo river coffee'.split(' ');
const doc = (i: number, seed: number) =>
  Array.from({ length: 4 + ((i * seed) % 9) }, (_, j) => WORDS[(i * 5 + j * seed) % WORDS.length]).join(' ');
const POISON = 'poison query that always fails';

class InjectedFault extends Error {}

interface FaultRates {
  readonly scoreCrash: number;
  readonly storeBefore: number;
  readonly storeAfter: number;
  readonly duplicate: number;
}

/**
 * Store calls that change state fail at random: before the write (nothing happened) or after it (the ack is lost).
 * The planner's per-line writes are spared: a failed plan task resumes at its last checkpoint (every round of
 * limits.planFlushTasks tasks, which a 40-line plan never reaches, so here it starts over), and at these rates a 40-line plan would rarely get through
 * (that ends the batch failed with a reason, which the engine tests cover; resuming: resumable-planning.test.ts).
 */
function faultyStore(store: BatchStore, random: () => number, rates: FaultRates): BatchStore {
  const writes = new Set(['update', 'putChunkScores', 'deleteChunkScores', 'putResult', 'countResults']);
  return new Proxy(store, {
    get(target, name, receiver) {
      const value = Reflect.get(target, name, receiver) as unknown;
      if (typeof value !== 'function' || !writes.has(String(name))) return typeof value === 'function' ? value.bind(target) : value;
      return async (...args: unknown[]) => {
        if (random() < rates.storeBefore) throw new InjectedFault(`${String(name)} failed before writing`);
        const result = await (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
        if (random() < rates.storeAfter) throw new InjectedFault(`${String(name)} wrote, then its answer was lost`);
        return result;
      };
    },
  });
}

function faultyScorer(scorer: Scorer, random: () => number, rates: FaultRates): Scorer {
  return {
    ...scorer,
    id: scorer.id,
    score: async (query, documents, options) => {
      if (query === POISON) throw new InjectedFault('poison line');
      if (random() < rates.scoreCrash) throw new InjectedFault('worker crashed while scoring');
      return scorer.score(query, documents, options);
    },
  };
}

/** Sends every task, and some twice (at-least-once delivery). */
function duplicatingQueue(queue: InProcessTaskQueue<BatchTask>, random: () => number, rates: FaultRates): BatchTaskQueue {
  return {
    send: (tasks: readonly BatchTask[]) => queue.send(tasks.flatMap((task) => (random() < rates.duplicate ? [task, task] : [task]))),
  };
}

async function runBatch(lines: readonly string[], rates: FaultRates, seed: number) {
  const random = seededRandom(hashSeed(`batch-chaos-${seed}`));
  const files = new InMemoryFileStore();
  const registry = createScorerRegistry([faultyScorer(createBm25Scorer({ id: 'bm25' }), random, rates)]);
  const inner = new InProcessTaskQueue<BatchTask>({ concurrency: 4, batchSize: 1, maxReceiveCount: 8, retryDelayMs: 1 });
  const engine: BatchEngine = createBatchEngine({
    store: faultyStore(new InMemoryBatchStore(), random, rates),
    files,
    queue: duplicatingQueue(inner, random, rates),
    scorerFor: (id) => registry.get(id),
    limits: { ...DEFAULT_BATCH_LIMITS, chunkCost: 60 },
    service: new RerankService({ catalog: registry }),
    plan: { syncMaxDocuments: 256, syncMaxChars: 2_000_000, defaultBatchSize: 8 },
    requestLimits: { maxDocuments: 1_000, maxBatchSize: 100, maxQueryChars: 1_000, maxDocumentChars: 10_000 },
  });
  const { worker, deadLetter } = engineTaskHandlers({ batches: async () => engine });
  inner.attach(worker, deadLetter);
  const input = await files.put(OWNER, 'in.jsonl', 'batch', lines.join('\n') + '\n');
  // Create is a client call: a failed one is retried by the client with the same Idempotency-Key.
  let created;
  for (let attempt = 0; created === undefined; attempt++) {
    created = await engine
      .create(OWNER, { inputFileId: input.id, endpoint: '/v1/rerank', completionWindow: '24h' }, `chaos-${seed}`)
      .catch((error: unknown) => {
        if (!(error instanceof InjectedFault) || attempt > 20) throw error;
        return undefined;
      });
  }
  // Waits while the batch moves (a loaded machine is slow, not lossy); 15 s of no change in its status or counts is stuck.
  const id = created.batch.id;
  let view = created;
  view = await waitForProgress(
    async () => {
      view = (await engine.find(id, OWNER).catch(() => view)) ?? view;
      return { done: isTerminal(view.batch.status), progress: JSON.stringify([view.batch.status, view.counts]), value: view };
    },
    { stallMs: 15_000, pollMs: 10, what: `batch ${id}` },
  );
  await inner.idle();
  const read = (id: string | undefined) =>
    id === undefined
      ? []
      : files
          .text(id)
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l) as { custom_id: string; response: { body: unknown } | null; error: unknown });
  return { batch: view.batch, output: read(view.batch.outputFileId), errors: read(view.batch.errorFileId) };
}

describe('batches under faults (crashes, failed and lost store writes, duplicate deliveries, a poison line)', {
  timeout: HANG_CEILING_MS,
}, () => {
  const lines = Array.from({ length: 40 }, (_, i) =>
    JSON.stringify({
      custom_id: `line-${i}`,
      method: 'POST',
      url: '/v1/rerank',
      body: {
        model: 'bm25',
        query: i === 17 ? POISON : `${WORDS[i % WORDS.length]} ${WORDS[(i * 3) % WORDS.length]}`,
        documents: Array.from({ length: 5 + (i % 23) }, (_, d) => doc(d, i + 1)),
        top_n: 5,
      },
    }),
  );

  it.each([1, 2, 3])('seed %i: every line ends exactly once, and every completed line equals the fault-free run', async (seed) => {
    const clean = await runBatch(lines, { scoreCrash: 0, storeBefore: 0, storeAfter: 0, duplicate: 0 }, seed);
    const chaos = await runBatch(lines, { scoreCrash: 0.1, storeBefore: 0.04, storeAfter: 0.04, duplicate: 0.2 }, seed);
    expect(chaos.batch.status, JSON.stringify(chaos.batch.errors)).toBe('completed');
    const ids = [...chaos.output, ...chaos.errors].map((l) => l.custom_id).sort();
    expect(ids).toEqual(lines.map((_, i) => `line-${i}`).sort());
    // The poison line fails on every delivery: it ends in the error file, the batch goes on.
    expect(chaos.errors.map((l) => l.custom_id)).toContain('line-17');
    const reference = new Map(clean.output.map((l) => [l.custom_id, l.response?.body]));
    for (const line of chaos.output) {
      const { id: _id, ...body } = line.response?.body as Record<string, unknown>;
      const { id: _refId, ...expected } = reference.get(line.custom_id) as Record<string, unknown>;
      expect(body, line.custom_id).toEqual(expected);
    }
  });
});
