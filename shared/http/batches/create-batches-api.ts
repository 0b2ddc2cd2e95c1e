import type { PlanLimits } from '../../core/plan-request.js';
import type { RequestLimits } from '../../core/validate-request.js';
import { startLocalBatchWorkers } from '../../runtime/local-batch-workers.js';
import { runtimeBatchEngine } from '../../runtime/runtime-batch-engine.js';
import type { ServiceRuntime } from '../../runtime/service-runtime.js';
import { BatchesApi } from './batches-api.js';

/** `/v1/batches` for this process, when it has a batch store and a FileStore (the engine and its local workers from the runtime). */
export function createBatchesApi(runtime: ServiceRuntime, requestLimits: RequestLimits, plan: PlanLimits): BatchesApi | undefined {
  const engine = runtimeBatchEngine(runtime, requestLimits, plan);
  if (!engine) return undefined;
  startLocalBatchWorkers(runtime, engine);
  return new BatchesApi(engine);
}
