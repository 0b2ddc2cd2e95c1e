import type { InProcessTaskQueue } from '../adapters/in-process/in-process-task-queue.js';
import type { BatchTask } from '../batches/batch-model.js';
import type { BatchLimits } from '../batches/batch-limits.js';
import type { BatchStore } from '../batches/batch-store.js';
import type { CorpusAnalysisLedger } from '../batches/corpus-analysis-ledger.js';
import type { BatchTaskQueue } from '../batches/batch-task-queue.js';
import type { FileStore } from '../files/file-store.js';
import type { UploadStore } from '../files/upload-store.js';
import type { QuotaLedger } from '../quota/quota-ledger.js';

/** The batch engine's storage-side ports for this process. */
export interface BatchRuntime {
  readonly store: BatchStore;
  readonly queue: BatchTaskQueue;
  /** Where a corpus' first analysis is followed (a batch's `analysing_corpus` progress): memory on `npm start`, the table on AWS. */
  readonly analysis?: CorpusAnalysisLedger;
  /** `npm start`'s in-process queue, which the engine attaches to; absent on AWS, where SQS feeds the batch worker. */
  readonly localQueue?: InProcessTaskQueue<BatchTask>;
  readonly limits: BatchLimits;
  /** The files behind batches and the Files API: a local folder on `npm start`, S3 on AWS. */
  readonly files?: FileStore;
  /** Pending uploads of the Uploads API: memory on `npm start`, the jobs table on AWS. */
  readonly uploads?: UploadStore;
  /** Each key's quota counters (files, bytes, pending uploads): memory seeded from the folder on `npm start`, the jobs table on AWS. */
  readonly quota?: QuotaLedger;
  /** The engine's clock, epoch ms (tests move it); absent = the system clock. */
  readonly nowMs?: () => number;
  /** A short-lived URL that downloads a file without credentials (S3's presigned GET); absent = the API streams it. */
  readonly downloadUrl?: (fileId: string, expiresInSeconds: number) => Promise<string | undefined>;
}

/** How often the embedded engine looks for batches past their completion window. */
export const EXPIRY_SWEEP_MS = 60_000;

/**
 * Batch tasks run at once: twice the scoring workers, so one task's reads (its line, its corpus range) and
 * bookkeeping overlap another's scoring instead of leaving a scorer idle (bench/batch-report.md).
 */
export const batchTaskRunners = (workers: number): number => workers * 2;
