import type { ScoreActivation } from '../core/rerank-request.js';
import type { DialectName } from '../dialects/dialect.js';

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

/** One SQS message: a slice of the candidate set, carried inline. */
export interface ChunkTask {
  readonly jobId: string;
  readonly chunkIndex: number;
  /** Global index of the chunk's first document. */
  readonly offset: number;
  readonly model: string;
  readonly query: string;
  readonly documents: readonly string[];
  /** The request's max_tokens_per_doc, applied by the worker as the sync path applies it (tokenBudget). */
  readonly maxDocumentTokens?: number;
  /** The request's instruction (chat `prompt`, DashScope `instruct`) for LLM rerankers; bounded by RERANK_MAX_INSTRUCTION_CHARS. */
  readonly instruction?: string;
  /**
   * The job's chunks in all: the worker counts its chunk against it without reading the job. Absent in a message
   * queued before it was added, whose worker reads the job once instead.
   */
  readonly chunkCount?: number;
}

/**
 * The job's merge, queued by the worker whose chunk completed the count: it runs in an invocation of its own (its own
 * timeout and retries), as a batch's finalize task does, instead of at the end of that worker's chunk.
 */
export interface MergeTask {
  readonly kind: 'merge';
  readonly jobId: string;
}

/** What the chunk queue carries: chunk tasks (no `kind`, as they always were on the wire) and merge tasks. */
export type JobTask = ChunkTask | MergeTask;

export const isMergeTask = (task: JobTask): task is MergeTask => 'kind' in task && task.kind === 'merge';

export interface ChunkScores {
  readonly chunkIndex: number;
  readonly offset: number;
  /** Raw scorer output, in chunk order. */
  readonly scores: readonly number[];
  readonly tokens: number;
}

/** A merged result kept in the store: [index, score] pairs, already normalized and sorted. */
export interface StoredResult {
  readonly ranked: readonly (readonly [number, number])[];
  readonly totalTokens: number;
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
