import { InProcessBatchTaskQueue } from '../adapters/in-process/in-process-batch-task-queue.js';
import { InMemoryBatchStore } from '../adapters/memory/in-memory-batch-store.js';
import { DEFAULT_BATCH_LIMITS, type BatchLimits } from '../batches/batch-limits.js';
import type { BatchStore } from '../batches/batch-store.js';
import type { ServiceConfig } from '../config/service-config.js';

/** The batch engine's storage-side ports for this process. */
export interface BatchRuntime {
  readonly store: BatchStore;
  readonly queue: InProcessBatchTaskQueue;
  readonly limits: BatchLimits;
}

/** How often the embedded engine looks for batches past their completion window. */
export const EXPIRY_SWEEP_MS = 60_000;

/**
 * Batch tasks run at once: twice the scoring workers, so one task's reads (its line, its corpus range) and
 * bookkeeping overlap another's scoring instead of leaving a scorer idle (bench/batch-report.md).
 */
export const batchTaskRunners = (workers: number): number => workers * 2;

/**
 * The embedded default (`memory` backend): batches in memory, tasks on an in-process queue with as many
 * runners as the local workers setting. The AWS adapters (DynamoDB batch store, SQS task queue) are issue 23:
 * until then the `aws` backend serves no batches.
 */
export function createBatchRuntime(config: ServiceConfig): BatchRuntime | undefined {
  if (config.jobs.backend !== 'memory') return undefined;
  return {
    store: new InMemoryBatchStore(),
    queue: new InProcessBatchTaskQueue({ concurrency: batchTaskRunners(config.jobs.workers), maxAttempts: config.jobs.maxReceiveCount, retryDelayMs: config.jobs.retryDelayMs }),
    limits: { ...DEFAULT_BATCH_LIMITS, ...config.batches },
  };
}
