import type { TruncationSide } from '../core/request-controls.js';

/** A job's tasks on the engine's queue: its chunks (candidates inline) and its merge. */

/** One SQS message: a slice of the candidate set, carried inline. */
export interface ChunkTask {
  readonly jobId: string;
  readonly chunkIndex: number;
  /** Global index of the chunk's first document. */
  readonly offset: number;
  readonly model: string;
  readonly query: string;
  readonly documents: readonly string[];
  /** The request's max_tokens_per_doc, applied by the worker as the sync path applies it (controlOptions). */
  readonly maxDocumentTokens?: number;
  /** The request's instruction (chat `prompt`, DashScope `instruct`) for LLM rerankers; bounded by RERANK_MAX_INSTRUCTION_CHARS. */
  readonly instruction?: string;
  /** The request's max_tokens_per_query and truncation side, applied by the worker as the sync path applies them. */
  readonly maxQueryTokens?: number;
  readonly truncationSide?: TruncationSide;
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
