import type { BatchEngine } from '../batches/batch-engine.js';
import { logger } from '../observability/logger.js';
import { EXPIRY_SWEEP_MS } from './batch-runtime.js';
import { engineTaskHandlers } from './engine-task-handlers.js';
import type { ServiceRuntime } from './service-runtime.js';

/**
 * On `npm start` (the local backend) the in-process queue runs the engine's tasks and a timer (unref'd) expires
 * batches past their window and files past their retention; on AWS the batch worker function does both (SQS tasks,
 * a schedule) and S3 has a lifecycle rule. Nothing to start where the runtime has no local batch queue.
 */
export function startLocalBatchWorkers(runtime: ServiceRuntime, engine: BatchEngine): void {
  const local = runtime.batches?.localQueue;
  if (!local) return;
  // The engine's one worker routine and dead-letter path, over this runtime and this engine (not the process's).
  const { worker, deadLetter } = engineTaskHandlers({ jobs: async () => runtime, batches: async () => engine });
  local.attach(worker, deadLetter);
  const sweep = setInterval(() => {
    engine.expireDue().catch((error: unknown) => logger.error('batch expiry sweep failed', { error: error as Error }));
    runtime.files?.deleteExpired?.().catch((error: unknown) => logger.error('file expiry sweep failed', { error: error as Error }));
  }, EXPIRY_SWEEP_MS);
  sweep.unref();
}
