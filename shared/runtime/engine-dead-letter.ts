import { deadLetterEngineTaskWith } from './engine-task-handlers.js';
import { deadLetterJobs } from './dead-letter-runtime.js';

/**
 * The engine's one dead-letter path over this process's ports, run by functions/workers/dead-letter.ts on both lanes'
 * dead-letter queues. The batch engine is imported only for a batch task, and a job is failed by a coordinator that
 * loads no model: a cold start fed a job's dead-lettered task loads no ONNX Runtime to mark the job failed.
 */
export const deadLetterEngineTask = (body: string, messageId: string): Promise<void> =>
  deadLetterEngineTaskWith(body, messageId, {
    jobs: async () => (await import('./process-runtime.js')).serviceRuntime(),
    deadLetterJobs,
    batches: async () => (await import('./worker-batch-engine.js')).workerBatchEngine(),
  });
