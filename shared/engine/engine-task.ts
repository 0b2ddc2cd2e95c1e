import type { BatchTask } from './batch-task.js';
import type { JobTask } from './job-task.js';

/**
 * Every task of the async engine as its lanes build it: a job's chunk (its candidates inline) or finish, a batch's plan,
 * chunk (a file range) or finalize. The queue adapters carry any EngineTask in the one wire form of task-codec.ts.
 */
export type EngineTask = JobTask | BatchTask;

/** A job's task: its chunks carry no kind, its finish is `finish`; every batch task is plan, chunk or finalize. */
export const isJobTask = (task: EngineTask): task is JobTask => task.kind === undefined || task.kind === 'finish';

/** The job a task belongs to; undefined for a batch's task. */
export const jobIdOf = (task: EngineTask): string | undefined => (isJobTask(task) ? task.jobId : undefined);

/** A task that scores candidates (a job's or a batch's chunk): queues share their runners among these. */
export const isChunkTask = (task: EngineTask): boolean => task.kind === undefined || task.kind === 'chunk';
