import type { LedgerChunkScores } from '../engine/chunk-ledger.js';
import type { ByteRange } from '../files/file-store.js';

export { linesOf, shardsOf, type BatchChunkTask, type BatchTask, type TaskShard } from '../engine/batch-task.js';

/** OpenAI's batch statuses: validating -> in_progress -> finalizing -> completed, or failed / expired / cancelling -> cancelled. */
export type BatchStatus = 'validating' | 'failed' | 'in_progress' | 'finalizing' | 'completed' | 'expired' | 'cancelling' | 'cancelled';

/** Statuses after which nothing changes any more. */
export const TERMINAL_STATUSES: readonly BatchStatus[] = ['failed', 'completed', 'expired', 'cancelled'];

export const isTerminal = (status: BatchStatus): boolean => TERMINAL_STATUSES.includes(status);

/** A batch-level problem (the input file could not be used at all): OpenAI's `errors.data[]`. */
export interface BatchError {
  readonly code: string;
  readonly message: string;
  readonly line?: number;
  readonly param?: string;
}

export interface BatchRequestCounts {
  readonly total: number;
  readonly completed: number;
  readonly failed: number;
}

/** The timestamps OpenAI reports, epoch seconds; absent until the batch gets there. */
export type BatchTimestampField =
  | 'inProgressAt'
  | 'finalizingAt'
  | 'completedAt'
  | 'failedAt'
  | 'expiredAt'
  | 'cancellingAt'
  | 'cancelledAt';

export interface BatchSpec {
  /** `batch_...`. */
  readonly id: string;
  /** Non-secret id of the API key that created the batch; only it may see it (others get 404). */
  readonly ownerKeyId: string;
  readonly inputFileId: string;
  /** The input file's version when the batch was created: every chunk reads exactly these bytes. */
  readonly inputFileVersion: string;
  readonly endpoint: string;
  readonly completionWindow: string;
  readonly metadata?: Readonly<Record<string, string>>;
  readonly createdAt: number;
  /** created_at + completion window: past it the engine expires the batch, keeping what finished. */
  readonly expiresAt: number;
  /** SHA-256 of the canonical create request when it came with an Idempotency-Key. */
  readonly requestHash?: string;
  /** The creating key's own bound on queued pairs (`--max-queued-pairs`); absent = the service's. */
  readonly maxQueuedPairs?: number;
}

export interface BatchRecord extends BatchSpec, Partial<Record<BatchTimestampField, number>> {
  readonly status: BatchStatus;
  /** Lines planned so far; final once the batch leaves `validating`. */
  readonly total: number;
  /** True once the planner has read the whole input file (the request count is final). */
  readonly planned: boolean;
  /**
   * Where planning resumes after a failure: the input file's byte and line after the last line whose request and
   * tasks are recorded and sent, and the request count by then. Absent = from the start.
   */
  readonly planCheckpoint?: {
    readonly nextByte: number;
    readonly nextLine: number;
    readonly total: number;
    /** Pairs of the lines before `nextLine`: what the batch's queued-pairs hold is set to when planning resumes. */
    readonly queuedPairs?: number;
  };
  readonly errors?: readonly BatchError[];
  readonly outputFileId?: string;
  readonly errorFileId?: string;
  /** Set by the finalizer: the counts its files hold. Before that, the sharded counters are summed. */
  readonly finalCounts?: BatchRequestCounts;
  /** How the batch ends, set by the transition that claimed its finalizer (completion, cancel or expiry). */
  readonly ending?: BatchEnding;
  /** The id of the transition that claimed the end (claimEnd): its writer knows its own write when the answer was lost. */
  readonly endClaim?: string;
  /** Who writes the batch's output and error files now, and until when (BatchStore.leaseFinalize). */
  readonly finalizeLease?: FinalizeLease;
  /**
   * Files the finalize attempts since the last clean-up opened (finalize-attempt-files.ts): whichever of them the batch
   * does not name are a failed attempt's, and are deleted by the next finalizer or recovery.
   */
  readonly attemptFileIds?: readonly string[];
}

/** A finalizer's claim on a batch being ended: `owner` alone writes its files until `until` (epoch seconds). */
export interface FinalizeLease {
  readonly owner: string;
  readonly until: number;
}

/** Statuses of a batch whose end is claimed and whose files are still to be written. */
export const ENDING_STATUSES: readonly BatchStatus[] = ['finalizing', 'cancelling'];

/**
 * Whether `owner` may take (or keep) the finalize lease at `now`: the batch is being ended and its lease is free,
 * ended, or already `owner`'s. Both store adapters decide by this one rule inside their conditional write.
 */
export const mayLeaseFinalize = (batch: BatchRecord, owner: string, now: number): boolean =>
  ENDING_STATUSES.includes(batch.status) &&
  (batch.finalizeLease === undefined || batch.finalizeLease.until <= now || batch.finalizeLease.owner === owner);

/**
 * `quota_exceeded`: a result line would have passed the key's stored-bytes quota; `queued_pairs_exceeded`: a line's
 * pairs would have passed the key's queued-pairs bound. Either way the batch ends failed with what it has.
 */
export type BatchEnding = 'completed' | 'cancelled' | 'expired' | 'quota_exceeded' | 'queued_pairs_exceeded';

/** Where a request's candidate documents are: in its own input line, or one per line of a corpus file. */
export type CandidateSource =
  | { readonly kind: 'inline'; readonly count: number }
  | { readonly kind: 'corpus'; readonly fileId: string; readonly version: string; readonly count: number };

/** One input line the planner admitted: everything the workers and the request's finalizer need, by reference. */
export interface BatchRequestPlan {
  /** 1-based line number in the input file (OpenAI's `errors.data[].line` counts from 1). */
  readonly line: number;
  readonly customId: string;
  /** The input line's bytes: workers re-read and re-admit it instead of carrying its query or documents. */
  readonly range: ByteRange;
  readonly candidates: CandidateSource;
  /** The scorer that scores chunks (a hybrid's model part when fused). */
  readonly chunkModel: string;
  readonly chunkCount: number;
}

/** Raw scores of one chunk, in chunk order (with the lexical component per document, for a request fused over a corpus). */
export type BatchChunkScores = LedgerChunkScores;

/** A finished request: the JSONL line for the output file (status 200) or the error file. */
export interface BatchRequestResult {
  readonly line: number;
  readonly outcome: 'completed' | 'failed';
  /** The whole JSONL line, without its newline. */
  readonly jsonl: string;
}
