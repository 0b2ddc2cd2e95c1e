import type { TruncationSide } from '../core/request-controls.js';

/** A job's tasks on the engine's queue: its chunks (candidates inline) and its finish. */

/** A slice of a job's candidate set, carried inline. */
export interface ChunkTask {
  /** A job's chunk has no kind of its own: in memory the lanes' tasks are told apart by `kind` (see isJobTask). */
  readonly kind?: undefined;
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
 * The job's finish, queued by the worker whose chunk completed the count: it merges the job's chunk scores into its
 * stored result in an invocation of its own (its own timeout and retries), as a batch's finalize task does, instead of
 * at the end of that worker's chunk. `finish` is its name in memory and in the task envelope alike.
 */
export interface FinishTask {
  readonly kind: 'finish';
  readonly jobId: string;
}

/** What a job puts on the queue: chunk tasks and finish tasks. */
export type JobTask = ChunkTask | FinishTask;

export const isFinishTask = (task: JobTask): task is FinishTask => task.kind === 'finish';

/** A job's finish task; a job id that is not a string is a poison message and throws. */
export function finishTask(jobId: unknown): FinishTask {
  if (typeof jobId !== 'string') throw new TypeError('malformed job task message');
  return { kind: 'finish', jobId };
}

/** A job chunk task's fields checked, whatever wire form carried them; anything malformed is a poison message and throws. */
export function checkChunkTask(value: Record<string, unknown>): ChunkTask {
  if (value['kind'] !== undefined) throw new TypeError('malformed job task message');
  const task = value as Partial<ChunkTask>;
  const ok =
    typeof task.jobId === 'string' &&
    Number.isSafeInteger(task.chunkIndex) &&
    Number.isSafeInteger(task.offset) &&
    typeof task.model === 'string' &&
    typeof task.query === 'string' &&
    Array.isArray(task.documents) &&
    task.documents.every((d) => typeof d === 'string') &&
    (task.maxDocumentTokens === undefined || (Number.isSafeInteger(task.maxDocumentTokens) && task.maxDocumentTokens > 0)) &&
    (task.instruction === undefined || typeof task.instruction === 'string') &&
    (task.maxQueryTokens === undefined || (Number.isSafeInteger(task.maxQueryTokens) && task.maxQueryTokens > 0)) &&
    (task.truncationSide === undefined || task.truncationSide === 'left' || task.truncationSide === 'right') &&
    (task.chunkCount === undefined || (Number.isSafeInteger(task.chunkCount) && task.chunkCount > (task.chunkIndex ?? 0)));
  if (!ok) throw new TypeError('malformed chunk task message');
  return task as ChunkTask;
}
