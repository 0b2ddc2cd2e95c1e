import type { ChunkTask, JobTask } from './job-task.js';

/** The wire form of a chunk or merge task in a queue message body. */
export const encodeChunkTask = (task: JobTask): string => JSON.stringify(task);

/** Parses a message body into a chunk or merge task; anything malformed is a poison message and throws. */
export function decodeJobTask(body: string): JobTask {
  const value = JSON.parse(body) as { kind?: unknown; jobId?: unknown } | null;
  if (typeof value === 'object' && value !== null && value.kind !== undefined) {
    if (value.kind !== 'merge' || typeof value.jobId !== 'string') throw new TypeError('malformed job task message');
    return { kind: 'merge', jobId: value.jobId };
  }
  return decodeChunkTask(body);
}

/** Parses a message body back into a ChunkTask; anything malformed is a poison message and throws. */
export function decodeChunkTask(body: string): ChunkTask {
  const value = JSON.parse(body) as Partial<ChunkTask> | null;
  const ok =
    typeof value === 'object' &&
    value !== null &&
    typeof value.jobId === 'string' &&
    Number.isSafeInteger(value.chunkIndex) &&
    Number.isSafeInteger(value.offset) &&
    typeof value.model === 'string' &&
    typeof value.query === 'string' &&
    Array.isArray(value.documents) &&
    value.documents.every((d) => typeof d === 'string') &&
    (value.maxDocumentTokens === undefined || (Number.isSafeInteger(value.maxDocumentTokens) && value.maxDocumentTokens > 0)) &&
    (value.instruction === undefined || typeof value.instruction === 'string') &&
    (value.maxQueryTokens === undefined || (Number.isSafeInteger(value.maxQueryTokens) && value.maxQueryTokens > 0)) &&
    (value.truncationSide === undefined || value.truncationSide === 'left' || value.truncationSide === 'right') &&
    (value.chunkCount === undefined || (Number.isSafeInteger(value.chunkCount) && value.chunkCount > (value.chunkIndex ?? 0)));
  if (!ok) throw new TypeError('malformed chunk task message');
  return value as ChunkTask;
}
