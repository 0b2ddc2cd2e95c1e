import type { PlanLimits } from '../../core/plan-request.js';
import type { RequestLimits } from '../../core/validate-request.js';
import { runtimeBatchEngine } from '../../runtime/runtime-batch-engine.js';
import type { ServiceRuntime } from '../../runtime/service-runtime.js';
import { BatchesApi } from './batches-api.js';

/**
 * `/v1/batches` for this process, when it has a batch store and a FileStore. Building it starts nothing: the tasks it
 * queues run where the process starter attached workers (shared/runtime/local-workers.ts) or on AWS's batch worker.
 */
export function createBatchesApi(runtime: ServiceRuntime, requestLimits: RequestLimits, plan: PlanLimits): BatchesApi | undefined {
  const engine = runtimeBatchEngine(runtime, requestLimits, plan);
  return engine ? new BatchesApi(engine) : undefined;
}
