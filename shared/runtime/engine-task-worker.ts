import { runEngineTaskWith } from './engine-task-handlers.js';
import { serviceRuntime } from './process-runtime.js';
import { workerBatchEngine } from './worker-batch-engine.js';

/**
 * The engine's one worker routine over this process's runtime, run by functions/workers/task-worker.ts: a lane's
 * engine is built when a task of it first comes, so a container fed only job tasks never builds the batch engine.
 */
export const runEngineTask = (body: string, messageId?: string): Promise<void> =>
  runEngineTaskWith(body, { jobs: serviceRuntime, batches: workerBatchEngine }, messageId);
