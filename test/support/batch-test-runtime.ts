import { InMemoryBatchStore } from '../../shared/adapters/memory/in-memory-batch-store.js';
import { InMemoryQuotaLedger } from '../../shared/adapters/memory/in-memory-quota-ledger.js';
import type { BatchEngine } from '../../shared/batches/batch-engine.js';
import { DEFAULT_BATCH_LIMITS, type BatchLimits } from '../../shared/batches/batch-limits.js';
import type { BatchTask } from '../../shared/batches/batch-model.js';
import type { BatchTaskQueue } from '../../shared/batches/batch-task-queue.js';
import type { Scorer } from '../../shared/core/scorer.js';
import type { ApiApp } from '../../shared/http/api-app.js';
import { apiLimitsOf } from '../../shared/runtime/api-limits.js';
import { runtimeBatchEngine } from '../../shared/runtime/runtime-batch-engine.js';
import { createApiApp } from '../../shared/http/create-api-app.js';
import { assembleServiceRuntime } from '../../shared/runtime/service-runtime.js';
import { InMemoryFileStore } from './in-memory-file-store.js';
import { testConfig } from './test-runtime.js';

/** A queue the test drives task by task: what runs, and when, is the test's choice. */
export class ManualBatchQueue implements BatchTaskQueue {
  readonly tasks: BatchTask[] = [];
  engine: BatchEngine | undefined;

  async send(tasks: readonly BatchTask[]): Promise<void> {
    this.tasks.push(...tasks);
  }

  /** Runs queued tasks (and those they queue) matching `which` until none is left. */
  async run(which: (task: BatchTask) => boolean = () => true): Promise<number> {
    let ran = 0;
    for (let at = this.tasks.findIndex(which); at >= 0; at = this.tasks.findIndex(which)) {
      const [task] = this.tasks.splice(at, 1);
      await (this.engine as BatchEngine).handle(task as BatchTask);
      ran++;
    }
    return ran;
  }
}

export interface BatchTestRuntime {
  readonly app: ApiApp;
  /** The batch worker's engine (the API builds its own over the same ports, as the two functions do on AWS). */
  readonly engine: BatchEngine;
  readonly files: InMemoryFileStore;
  readonly store: InMemoryBatchStore;
  /** The keys' quota ledger the Files API and the engines share. */
  readonly quota: InMemoryQuotaLedger;
  readonly queue: ManualBatchQueue;
  /** The engine's clock, epoch ms; tests move it. */
  readonly clock: { nowMs: number };
}

/**
 * The runtime and API production build (assembleServiceRuntime, createApiApp) with `/v1/batches` and `/v1/files` over
 * in-memory ports, operator keys `key-a` and `key-b`, a hand-driven task queue and a clock the test moves.
 */
export function batchTestRuntime(scorers: readonly Scorer[], limits: Partial<BatchLimits> = {}, options: { readonly files?: InMemoryFileStore; readonly maxStoredBytesPerKey?: number } = {}): BatchTestRuntime {
  const clock = { nowMs: Date.UTC(2026, 0, 1) };
  // A test may hand in the files of an earlier runtime: a restart of the service over the same stored files.
  const files = options.files ?? new InMemoryFileStore({ now: () => Math.floor(clock.nowMs / 1000) });
  const store = new InMemoryBatchStore();
  const queue = new ManualBatchQueue();
  // Operator keys key-a and key-b; the small limits these tests assume.
  const base = testConfig({ scorers, apiKeys: ['key-a', 'key-b'], limits: { maxQueryChars: 1000, maxDocumentChars: 1000 } });
  const storage = options.maxStoredBytesPerKey === undefined ? {} : { maxStoredBytesPerKey: options.maxStoredBytesPerKey };
  const config = { ...base, files: { ...base.files, ...storage } };
  // One ledger for the Files API and both engines, as the backends give one.
  const quota = new InMemoryQuotaLedger();
  const runtime = assembleServiceRuntime(config, scorers, {
    batches: { store, queue, files, quota, limits: { ...DEFAULT_BATCH_LIMITS, chunkCost: 40, ...limits }, nowMs: () => clock.nowMs },
  });
  const { limits: requestLimits, plan } = apiLimitsOf(config);
  const engine = runtimeBatchEngine(runtime, requestLimits, plan) as BatchEngine;
  queue.engine = engine;
  return { app: createApiApp(runtime), engine, files, store, quota, queue, clock };
}
