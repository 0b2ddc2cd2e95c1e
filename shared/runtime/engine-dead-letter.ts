import { deadLetterEngineTaskWith } from './engine-task-handlers.js';
import { deadLetterBatches, deadLetterJobs } from './dead-letter-runtime.js';

/**
 * The engine's one dead-letter path over this process's ports, run by functions/workers/dead-letter.ts on both lanes'
 * dead-letter queues. A job is failed by a coordinator, and a batch's work ended by an engine, over the storage
 * adapters: a cold start fed a dead-lettered task loads no ONNX Runtime to end its work (only a chunk recorded after
 * all, whose request must still be finished, loads the models).
 */
export const deadLetterEngineTask = (body: string, messageId: string): Promise<void> =>
  deadLetterEngineTaskWith(body, messageId, {
    jobs: async () => (await import('./process-runtime.js')).serviceRuntime(),
    deadLetterJobs,
    batches: deadLetterBatches,
  });
