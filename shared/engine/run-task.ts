import { logger } from '../observability/logger.js';
import type { BatchTask } from './batch-task.js';
import { isJobTask } from './engine-task.js';
import type { JobTask } from './job-task.js';
import { decodeTask, readDeadLetteredTask } from './task-codec.js';

/** What runs a lane's own tasks: a job's chunk or finish, a batch's plan, chunk or finalize. */
export interface TaskRunner<T> {
  /** `messageId`: the queue message's (stable across its redeliveries). */
  handle(task: T, messageId?: string): Promise<void>;
}

/** What ends a lane's work whose task failed on every delivery (the one dead-letter recovery, run by each lane's owner). */
export interface DeadLetterRunner<T> {
  taskDeadLettered(task: T, reason: string): Promise<void>;
}

/** The lanes a process runs, each built when a task of it first comes. */
export interface EngineLanes {
  readonly jobs: () => Promise<TaskRunner<JobTask>>;
  readonly batches: () => Promise<TaskRunner<BatchTask>>;
}

export interface DeadLetterLanes {
  readonly jobs: () => Promise<{ deadLettered(jobId: string, chunkIndex: number | undefined, reason: string): Promise<void> }>;
  readonly batches: () => Promise<DeadLetterRunner<BatchTask>>;
}

const DEAD_LETTER_REASON = 'the task failed on every delivery and was moved to the dead-letter queue';

/** The engine's worker routine: one task message, whichever lane's, run by the lane that owns it. A throw redelivers it. */
export async function runTask(body: string, lanes: EngineLanes, messageId?: string): Promise<void> {
  const task = decodeTask(body);
  if (isJobTask(task)) return (await lanes.jobs()).handle(task, messageId);
  return (await lanes.batches()).handle(task, messageId);
}

/**
 * The engine's dead-letter path: a task that failed on every delivery ends its work - a job (or finishes it, if its chunk
 * was recorded after all), a batch line or a batch - so accepted work is never lost. An unreadable message is dropped
 * (it never becomes readable).
 */
export async function deadLetterTask(body: string, messageId: string, lanes: DeadLetterLanes): Promise<void> {
  const dead = readDeadLetteredTask(body);
  if (!dead) {
    logger.error('unreadable dead-lettered task dropped', { messageId });
    return;
  }
  if (dead.of === 'batch') return (await lanes.batches()).taskDeadLettered(dead.task, DEAD_LETTER_REASON);
  try {
    await (await lanes.jobs()).deadLettered(dead.jobId, dead.chunkIndex, dead.reason);
  } catch (error) {
    logger.error('could not mark job failed', { jobId: dead.jobId, error: error as Error });
    throw error;
  }
}
