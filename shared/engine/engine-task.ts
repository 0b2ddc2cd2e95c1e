import { decodeJobTask } from './job-task-codec.js';
import { deadLetteredChunk } from './dead-lettered-chunk.js';
import type { JobTask } from './job-task.js';
import type { BatchTask } from './batch-task.js';
import { decodeBatchTask } from './batch-task-codec.js';

/**
 * Every task of the async engine as a queue message carries it: a job's chunk (its candidates inline) or merge, a
 * batch's plan, chunk (a file range) or finalize. `of` says whose it is.
 */
export type EngineTask = { readonly of: 'job'; readonly task: JobTask } | { readonly of: 'batch'; readonly task: BatchTask };

/** A batch task names its batch; a job task its job. Both wire forms are the ones deployed stacks already send. */
const namesBatch = (value: unknown): boolean =>
  typeof value === 'object' && value !== null && typeof (value as { batchId?: unknown }).batchId === 'string';

/**
 * The decoder of a task message, whichever queue it came from: messages in flight across a deploy keep their
 * meaning (nothing about either wire form changed). Anything malformed is a poison message and throws.
 */
export function decodeEngineTask(body: string): EngineTask {
  return namesBatch(JSON.parse(body)) ? { of: 'batch', task: decodeBatchTask(body) } : { of: 'job', task: decodeJobTask(body) };
}

/** What a dead-lettered message still says: the batch task to end, or the job (and chunk) to fail; undefined when unreadable. */
export type DeadLetteredTask =
  | { readonly of: 'batch'; readonly task: BatchTask }
  | { readonly of: 'job'; readonly jobId: string; readonly chunkIndex: number | undefined; readonly reason: string };

/**
 * The reading of a dead-lettered message: a batch task must decode whole (its handler needs its line or its batch);
 * a job's message needs only its job id (and chunk index), so even a poison chunk fails its job instead of leaving it
 * waiting.
 */
export function readDeadLetteredTask(body: string): DeadLetteredTask | undefined {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return undefined;
  }
  if (namesBatch(value)) {
    try {
      return { of: 'batch', task: decodeBatchTask(body) };
    } catch {
      return undefined;
    }
  }
  const failure = deadLetteredChunk(body);
  return failure && { of: 'job', ...failure };
}

/** The wire form of any task: the task as JSON (job tasks carry their candidates inline, batch tasks references only). */
export const encodeEngineTask = (task: JobTask | BatchTask): string => JSON.stringify(task);
