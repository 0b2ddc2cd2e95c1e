import type { ByteRange } from '../files/file-store.js';

/** A batch's tasks on the engine's queue: its plan, its chunks (file references only) and its finalize. */

/** A chunk task: references only (file id + version + byte range), never documents or the query. */
export interface BatchChunkTask {
  readonly kind: 'chunk';
  readonly batchId: string;
  readonly line: number;
  readonly chunkIndex: number;
  /** Global index of the chunk's first document. */
  readonly offset: number;
  readonly count: number;
  /** The corpus slice this chunk scores (absent: the documents are the input line's own, `offset..offset+count`). */
  readonly corpusRange?: ByteRange;
  /**
   * A group of lines over one stored corpus (same file, same model): the shard is read once and scored for all of
   * them, each line's scores recorded as its own chunk. `line` is the first of them. Absent: `line` alone (the form
   * stacks sent before grouping, still read).
   */
  readonly lines?: readonly number[];
  /**
   * The consecutive stored shards a grouped task's span covers, in order (their documents and bytes together are the
   * task's `offset`, `count` and `corpusRange`): each is read or analysed alone, and each line records one chunk for
   * the span. Absent: the task's own range is its one shard.
   */
  readonly shards?: readonly TaskShard[];
}

/** One stored shard of a span: documents `offset .. offset + count`, the corpus file's bytes `range`. */
export interface TaskShard {
  readonly offset: number;
  readonly count: number;
  readonly range: ByteRange;
}

/** The lines a chunk task scores: its group, or its one line. */
export const linesOf = (task: BatchChunkTask): readonly number[] => task.lines ?? [task.line];

/** The stored shards a corpus task scores: its span's, or its own range as one. */
export const shardsOf = (task: BatchChunkTask & { readonly corpusRange: ByteRange }): readonly TaskShard[] =>
  task.shards ?? [{ offset: task.offset, count: task.count, range: task.corpusRange }];

export type BatchTask =
  | { readonly kind: 'plan'; readonly batchId: string }
  | BatchChunkTask
  | { readonly kind: 'finalize'; readonly batchId: string };

const isCount = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;
/** Lines one grouped chunk task may carry: far above any group the planner makes, so a message stays a few KB. */
export const MAX_TASK_LINES = 1024;
const isLines = (value: unknown): boolean =>
  Array.isArray(value) && value.length >= 1 && value.length <= MAX_TASK_LINES && value.every(isCount);
const isRange = (value: unknown): boolean =>
  typeof value === 'object' && value !== null && isCount((value as { start?: unknown }).start) && isCount((value as { end?: unknown }).end);
/** Shards one span may name: far above the planner's span, so a message stays a few KB. */
export const MAX_TASK_SHARDS = 256;

/** A span's shards: consecutive documents and ordered bytes that together are the task's own offset, count and range. */
function isSpan(value: unknown, task: Record<string, unknown>): boolean {
  if (!Array.isArray(value) || value.length < 1 || value.length > MAX_TASK_SHARDS) return false;
  const range = task['corpusRange'] as { start: number; end: number };
  let offset = task['offset'] as number;
  let byte = range.start;
  for (const shard of value as Record<string, unknown>[]) {
    if (typeof shard !== 'object' || shard === null || shard['offset'] !== offset || !isCount(shard['count']) || !isRange(shard['range']))
      return false;
    const bytes = shard['range'] as { start: number; end: number };
    if (bytes.start < byte || bytes.end < bytes.start || bytes.end > range.end) return false;
    offset += shard['count'];
    byte = bytes.end;
  }
  return offset === (task['offset'] as number) + (task['count'] as number) && byte === range.end;
}

/** A batch task's fields checked, whatever wire form carried them; anything malformed is a poison message and throws. */
export function checkBatchTask(value: Record<string, unknown>): BatchTask {
  if (typeof value['batchId'] !== 'string') throw new TypeError('malformed batch task message');
  switch (value['kind']) {
    case 'plan':
    case 'finalize':
      return { kind: value['kind'], batchId: value['batchId'] };
    case 'chunk':
      if (
        isCount(value['line']) &&
        isCount(value['chunkIndex']) &&
        isCount(value['offset']) &&
        isCount(value['count']) &&
        (value['corpusRange'] === undefined || isRange(value['corpusRange'])) &&
        // A group is over a corpus and names its first line as `line` (a dead-letter reader that knows only single lines still finds one).
        (value['lines'] === undefined ||
          (isLines(value['lines']) && value['corpusRange'] !== undefined && (value['lines'] as number[])[0] === value['line'])) &&
        (value['shards'] === undefined || (value['corpusRange'] !== undefined && isSpan(value['shards'], value)))
      ) {
        return value as unknown as BatchTask;
      }
      throw new TypeError('malformed batch chunk task message');
    default:
      throw new TypeError('malformed batch task message');
  }
}
