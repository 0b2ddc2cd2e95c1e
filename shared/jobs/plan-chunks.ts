import type { TruncationSide } from '../core/request-controls.js';
import type { ChunkTask } from './job-model.js';
import { encodeTask } from '../engine/task-codec.js';

export interface ChunkPlanInput {
  readonly jobId: string;
  readonly model: string;
  readonly query: string;
  readonly documents: readonly string[];
  readonly batchSize: number;
  readonly maxDocumentTokens?: number | undefined;
  readonly instruction?: string | undefined;
  readonly maxQueryTokens?: number | undefined;
  readonly truncationSide?: TruncationSide | undefined;
  /** The queue's message size limit; a chunk that would not fit is split further. */
  readonly maxMessageBytes: number;
}

/**
 * Splits the candidate set into `batchSize` slices, halving any slice whose message would exceed the
 * queue's limit (long documents). A single document too large for one message is a client error the
 * caller rejects earlier (documents are capped far below the message size).
 */
export function planChunks(input: ChunkPlanInput): ChunkTask[] {
  const tasks: ChunkTask[] = [];
  const pending: { offset: number; length: number }[] = [];
  for (let offset = 0; offset < input.documents.length; offset += input.batchSize) {
    pending.push({ offset, length: Math.min(input.batchSize, input.documents.length - offset) });
  }
  while (pending.length > 0) {
    const slice = pending.shift() as { offset: number; length: number };
    const task = {
      jobId: input.jobId,
      chunkIndex: 0,
      offset: slice.offset,
      model: input.model,
      query: input.query,
      documents: input.documents.slice(slice.offset, slice.offset + slice.length),
      ...(input.maxDocumentTokens === undefined ? {} : { maxDocumentTokens: input.maxDocumentTokens }),
      ...(input.instruction === undefined ? {} : { instruction: input.instruction }),
      ...(input.maxQueryTokens === undefined ? {} : { maxQueryTokens: input.maxQueryTokens }),
      ...(input.truncationSide === undefined ? {} : { truncationSide: input.truncationSide }),
    };
    if (slice.length > 1 && Buffer.byteLength(encodeTask(task)) > input.maxMessageBytes) {
      const half = Math.ceil(slice.length / 2);
      pending.unshift({ offset: slice.offset, length: half }, { offset: slice.offset + half, length: slice.length - half });
      continue;
    }
    tasks.push(task);
  }
  return tasks.map((task, chunkIndex) => ({ ...task, chunkIndex, chunkCount: tasks.length }));
}
