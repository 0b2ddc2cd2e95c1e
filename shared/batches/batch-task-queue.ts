import type { TaskQueue } from '../engine/task-queue.js';
import type { BatchTask } from './batch-model.js';

/** The batches' lane of the engine's one queue port: plan, chunk and finalize tasks. */
export type BatchTaskQueue = TaskQueue<BatchTask>;
