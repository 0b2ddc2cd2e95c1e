import type { QuotaLedger } from '../quota/quota-ledger.js';
import type { ChunkLedger } from '../engine/chunk-ledger.js';
import type { ChunkFuser } from '../engine/rank-chunk-scores.js';
import type { ChunkQueue } from './chunk-queue.js';
import type { JobStore } from './job-store.js';

/** The ports and settings of the job lane: the coordinator (submit, find, wait, cancel, outcome) and its run (JobLane). */
export interface JobCoordinatorDeps {
  readonly store: JobStore;
  /** Where the job's chunks are recorded and counted: the batch engine's protocol, the job as one request. */
  readonly chunks: ChunkLedger;
  readonly queue: ChunkQueue;
  readonly jobTtlSeconds: number;
  readonly maxMessageBytes: number;
  readonly nowMs?: () => number;
  readonly newId?: () => string;
  /**
   * The keys' quota ledger, where a running job holds one of its key's `running_jobs` (hold `job:<id>`, taken at submit,
   * given back when the job ends), beside its running batches and stored bytes. Absent = unlimited.
   */
  readonly quota?: QuotaLedger;
  /** The fusion step of a splittable hybrid model, by the job's model id (see JobSpec.fusion). */
  readonly fuserFor?: (modelId: string) => ChunkFuser | undefined;
}
