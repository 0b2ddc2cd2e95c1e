import type { JobTask } from '../jobs/job-model.js';
import type { ApiKeyStore } from '../auth/api-key-store.js';
import type { QuotaLedger } from '../quota/quota-ledger.js';
import type { RateLimiter } from '../auth/rate-limiter.js';
import type { InProcessTaskQueue } from '../adapters/in-process/in-process-task-queue.js';
import type { ChunkLedger } from '../engine/chunk-ledger.js';
import type { ChunkQueue } from '../jobs/chunk-queue.js';
import type { JobStore } from '../jobs/job-store.js';
import type { BatchRuntime } from './batch-runtime.js';

/** The storage-side ports of jobs and keys. */
export interface BackendAdapters {
  readonly store: JobStore;
  /** Where job chunks are recorded and counted: the batch store's chunk protocol (a job is one request). */
  readonly chunks: ChunkLedger;
  readonly queue: ChunkQueue;
  readonly keys: ApiKeyStore;
  readonly rateLimiter: RateLimiter;
  /** Each key's quota ledger: running jobs and batches, files, stored bytes, pending uploads (batches share it). */
  readonly quota: QuotaLedger;
}

/** Every storage-side port of a process, from one backend. */
export interface Backend extends BackendAdapters {
  /** Batches' store, task queue, files and uploads (absent where the backend has none configured). */
  readonly batches: BatchRuntime | undefined;
  /** `npm start`'s in-process chunk queue, which the starter attaches the worker handlers to; absent on AWS (SQS triggers them). */
  readonly localChunkQueue?: InProcessTaskQueue<JobTask>;
}
