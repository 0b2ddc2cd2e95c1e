import type { BatchEngine } from '../batches/batch-engine.js';
import { apiLimitsOf } from './api-limits.js';
import { serviceRuntime } from './process-runtime.js';
import { runtimeBatchEngine } from './runtime-batch-engine.js';

let engine: Promise<BatchEngine> | undefined;

/**
 * The batch worker's engine, built once per container from the same runtime and limits as the API, so a line is
 * admitted, scored and formatted exactly as the route would. Throws where this deployment has no batches.
 */
export function workerBatchEngine(): Promise<BatchEngine> {
  engine ??= serviceRuntime().then((runtime) => {
    const { limits, plan } = apiLimitsOf(runtime.config);
    const built = runtimeBatchEngine(runtime, limits, plan);
    if (!built) throw new Error('batch worker: no batch store or files (RERANK_BATCH_QUEUE_URL and RERANK_FILES_BUCKET unset)');
    return built;
  });
  return engine;
}
