import { AlreadyExistsError } from '../core/already-exists-error.js';
import type { RerankDocument } from '../core/rerank-request.js';
import type { ChunkRecordOutcome, ChunkScores, JobRecord, JobSpec, StoredResult } from './job-model.js';

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
 * Where jobs live. Adapters: DynamoDB (production, DynamoDB Local in tests) and in-memory (npm start).
 * Every adapter passes the same contract suite (test/contract/job-store.contract.ts).
 */
export interface JobStore {
  /** Throws JobExistsError when the id is taken. Creates the job as `running` with 0 chunks done; `documents` are kept only when the job returns documents. */
  create(spec: JobSpec, documents: readonly RerankDocument[] | undefined, now: number): Promise<void>;
  get(jobId: string): Promise<JobRecord | undefined>;
  /**
   * Records a chunk's scores exactly once and counts it: a second delivery of the same chunk returns
   * `recorded: false` and leaves the count unchanged. Chunks of a job that is no longer running are ignored.
   */
  putChunkScores(jobId: string, scores: ChunkScores, now: number): Promise<ChunkRecordOutcome>;
  listChunkScores(jobId: string): Promise<ChunkScores[]>;
  getDocuments(jobId: string): Promise<RerankDocument[]>;
  /** Stores the result and marks the job succeeded, only if it is still running. Returns whether it did. */
  complete(jobId: string, result: StoredResult, now: number): Promise<boolean>;
  /** Marks the job failed with a reason, only if it is still running. Returns whether it did. */
  fail(jobId: string, reason: string, now: number): Promise<boolean>;
  getResult(jobId: string): Promise<StoredResult | undefined>;
}
