import { AlreadyExistsError } from '../core/already-exists-error.js';
import type { RerankDocument } from '../core/rerank-request.js';
import type { JobSpec, JobState, StoredResult } from './job-model.js';

/** A create whose job id is taken: an Idempotency-Key retry racing the first submit, or a key whose job expired. */
export class JobExistsError extends AlreadyExistsError {
  constructor(
    readonly jobId: string,
    cause?: unknown,
  ) {
    super('job', jobId, cause);
    this.name = 'JobExistsError';
  }
}

/**
 * Where jobs live: each job's one item of state (changed only by its two ending transitions), its documents and its
 * result. Its chunks are recorded and counted in the ChunkLedger, as a batch line's are, never on this item.
 * Adapters: DynamoDB (production, DynamoDB Local in tests) and in-memory (npm start). Every adapter passes the same contract suite (test/contract/job-store.contract.ts).
 */
export interface JobStore {
  /** Throws JobExistsError when the id is taken. Creates the job as `running`; `documents` are kept only when the job returns documents. */
  create(spec: JobSpec, documents: readonly RerankDocument[] | undefined, now: number): Promise<void>;
  /**
   * The job, read consistently unless `consistent: false`: a worker's per-chunk "still running?" may read a replica (half
   * the read cost, any replica serves it); a cancel seen a moment late costs one chunk's scoring, never a result.
   */
  get(jobId: string, options?: { readonly consistent?: boolean }): Promise<JobState | undefined>;
  getDocuments(jobId: string): Promise<RerankDocument[]>;
  /** Stores the result and marks the job succeeded, only if it is still running. Returns whether it did. */
  complete(jobId: string, result: StoredResult, now: number): Promise<boolean>;
  /** Marks the job failed with a reason, only if it is still running. Returns whether it did. */
  fail(jobId: string, reason: string, now: number): Promise<boolean>;
  getResult(jobId: string): Promise<StoredResult | undefined>;
}
