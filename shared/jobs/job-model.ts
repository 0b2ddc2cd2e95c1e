import type { ScoreActivation } from '../core/rerank-request.js';
import type { RequestControl, TokenCuts } from '../core/request-controls.js';
import type { DialectName } from '../dialects/dialect.js';

export type { ChunkScores } from '../engine/chunk-ledger.js';
export { isFinishTask, type ChunkTask, type FinishTask, type JobTask } from '../engine/job-task.js';

export type JobStatus = 'running' | 'succeeded' | 'failed';

/** Everything the merge and the poll need to rebuild the outcome exactly as the synchronous path would. */
export interface JobSpec {
  readonly id: string;
  readonly dialect: DialectName;
  /** Non-secret id of the API key that submitted the job; only it may read the job. */
  readonly ownerKeyId: string;
  readonly model: string;
  readonly documentCount: number;
  readonly chunkCount: number;
  readonly topN: number | undefined;
  readonly threshold: number | undefined;
  readonly returnDocuments: boolean;
  /** Resolved at submission so the merge never depends on later configuration. */
  readonly activation: ScoreActivation;
  /** Epoch seconds; the store's TTL removes the job after this. */
  readonly expiresAt: number;
  /**
   * Set when `model` is a hybrid whose lexical part runs at the merge over all candidates (chunks are
   * scored by `chunkModel`); the merge needs the query and the stored documents for it.
   */
  readonly fusion?: { readonly query: string; readonly chunkModel: string };
  /** requestFingerprint of the submitted request, kept when it came with an Idempotency-Key: a retry must match it. */
  readonly requestHash?: string;
  /** Controls the request sent that its model has no use for: its answer reports them, as a synchronous one does. */
  readonly unusedControls?: readonly RequestControl[];
}

/** A job as its store keeps it: the spec and its lifecycle. Its chunks are counted in the ChunkLedger, not here. */
export interface JobState extends JobSpec {
  readonly status: JobStatus;
  readonly createdAt: number;
  readonly updatedAt: number;
  /** Why a failed job failed, in words a client can act on. */
  readonly error?: string;
}

/** A job as its owner sees it: its state and the chunks counted so far. */
export interface JobRecord extends JobState {
  readonly chunksDone: number;
}

/** A merged result kept in the store: [index, score] pairs, already normalized and sorted. */
export interface StoredResult {
  readonly ranked: readonly (readonly [number, number])[];
  readonly totalTokens: number;
  /** What the model cut over the job's chunks (at most MAX_STORED_CUTS documents listed); absent when nothing was. */
  readonly cuts?: TokenCuts;
}

/**
 * True when `record` is what creating `spec` at `now` produced: a create retried after a lost response
 * (ids are fresh UUIDs, so nobody else writes them) must succeed, not leave an orphan behind an error.
 */
export const isSameJobCreation = (record: JobState, spec: JobSpec, now: number): boolean =>
  record.createdAt === now &&
  record.ownerKeyId === spec.ownerKeyId &&
  record.model === spec.model &&
  record.documentCount === spec.documentCount &&
  record.chunkCount === spec.chunkCount &&
  record.expiresAt === spec.expiresAt;
