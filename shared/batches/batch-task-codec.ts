import type { BatchTask } from './batch-model.js';

/** The wire form of a BatchTask in a queue message: references only, so every message stays a few hundred bytes. */
export const encodeBatchTask = (task: BatchTask): string => JSON.stringify(task);

const isCount = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;
/** Lines one grouped chunk task may carry: far above any group the planner makes, so a message stays a few KB. */
export const MAX_TASK_LINES = 1024;
const isLines = (value: unknown): boolean => Array.isArray(value) && value.length >= 1 && value.length <= MAX_TASK_LINES && value.every(isCount);
const isRange = (value: unknown): boolean =>
  typeof value === 'object' && value !== null && isCount((value as { start?: unknown }).start) && isCount((value as { end?: unknown }).end);

/** Parses a message body back into a BatchTask; anything malformed is a poison message and throws. */
export function decodeBatchTask(body: string): BatchTask {
  const value = JSON.parse(body) as Record<string, unknown> | null;
  if (typeof value !== 'object' || value === null || typeof value['batchId'] !== 'string') throw new TypeError('malformed batch task message');
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
        // A group is over a corpus and names its first line as `line` (what a dead-letter reader of the old form reads).
        (value['lines'] === undefined || (isLines(value['lines']) && value['corpusRange'] !== undefined && (value['lines'] as number[])[0] === value['line']))
      ) {
        return value as unknown as BatchTask;
      }
      throw new TypeError('malformed batch chunk task message');
    default:
      throw new TypeError('malformed batch task message');
  }
}
