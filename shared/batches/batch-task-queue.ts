import type { BatchTask } from './batch-model.js';

/**
 * How planner, chunk and finalize tasks reach the engine's workers. Adapters: in-process (npm start); SQS next
 * (issue 23). Delivery is at least once: every handler tolerates a task delivered twice.
 */
export interface BatchTaskQueue {
  send(tasks: readonly BatchTask[]): Promise<void>;
}
