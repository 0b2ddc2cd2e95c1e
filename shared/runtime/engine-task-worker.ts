import { runEngineTaskWith } from './engine-task-handlers.js';
import { serviceRuntime } from './process-runtime.js';
import { workerBatchEngine } from './worker-batch-engine.js';

/**
 * The engine's one worker routine over this process's runtime: the chunk function (60 s) and the batch function (900 s,
 * for planning) both run it; they differ only in their timeouts and triggers.
 */
export const runEngineTask = (body: string, messageId?: string): Promise<void> =>
  runEngineTaskWith(body, { jobs: serviceRuntime, batches: workerBatchEngine }, messageId);
