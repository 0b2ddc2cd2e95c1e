import type { BatchTask } from './batch-task.js';

/** The wire form of a BatchTask in a queue message: references only, so every message stays a few hundred bytes. */
export const encodeBatchTask = (task: BatchTask): string => JSON.stringify(task);

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

/** Parses a message body back into a BatchTask; anything malformed is a poison message and throws. */
export function decodeBatchTask(body: string): BatchTask {
  const value = JSON.parse(body) as Record<string, unknown> | null;
  if (typeof value !== 'object' || value === null || typeof value['batchId'] !== 'string')
    throw new TypeError('malformed batch task message');
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
