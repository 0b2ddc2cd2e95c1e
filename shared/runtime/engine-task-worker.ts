import { decodeEngineTask } from '../batches/engine-task.js';
import { runJobTask } from '../jobs/score-chunk-task.js';
import { serviceRuntime } from './process-runtime.js';
import { workerBatchEngine } from './worker-batch-engine.js';

/**
 * THE worker routine of the async engine: one task message from either queue, run by what owns it (a job's chunk or
 * merge by the JobCoordinator, a batch's plan, chunk or finalize by the batch engine). The chunk function (60 s) and
 * the batch function (900 s, for planning) both run it; they differ only in their timeouts and triggers. A throw
 * reports the message as failed, so the queue redelivers it.
 */
export async function runEngineTask(body: string): Promise<void> {
  const message = decodeEngineTask(body);
  if (message.of === 'job') return runJobTask(message.task, await serviceRuntime());
  return (await workerBatchEngine()).handle(message.task);
}
