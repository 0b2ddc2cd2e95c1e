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
