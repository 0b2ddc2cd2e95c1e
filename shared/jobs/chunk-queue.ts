import type { JobTask } from '../engine/job-task.js';
import type { TaskQueue } from '../engine/task-queue.js';

/** The jobs' lane of the engine's one queue port: chunk and finish tasks. */
export type ChunkQueue = TaskQueue<JobTask>;
