import type { PlanLimits } from '../../core/plan-request.js';
import type { RequestLimits } from '../../core/validate-request.js';
import { logger } from '../../observability/logger.js';
import { EXPIRY_SWEEP_MS } from '../../runtime/batch-runtime.js';
import { fuserOf, type ServiceRuntime } from '../../runtime/service-runtime.js';
import { candidateSetFusionOf } from '../../runtime/candidate-set-fusion-of.js';
import type { BatchEngine } from '../../batches/batch-engine.js';
import { BatchesApi } from './batches-api.js';
import { createBatchEngine } from './create-batch-engine.js';

/** The batch engine over this runtime's ports, admitting lines with the API's own limits (API and batch worker). */
export function runtimeBatchEngine(runtime: ServiceRuntime, requestLimits: RequestLimits, plan: PlanLimits): BatchEngine | undefined {
  const { batches, files } = runtime;
  if (!batches || !files) return undefined;
  return createBatchEngine({
    store: batches.store,
    files,
    queue: batches.queue,
    scorerFor: (modelId) => runtime.scorers.get(modelId),
    fuserFor: (modelId) => fuserOf(runtime.scorers, modelId),
    setFusionFor: (modelId) => candidateSetFusionOf(runtime.scorers, modelId),
    limits: batches.limits,
    ...(batches.nowMs ? { nowMs: batches.nowMs } : {}),
    service: runtime.service,
    plan,
    requestLimits,
  });
}

/**
 * `/v1/batches` for this process, when it has a batch store and a FileStore. On `npm start` the in-process queue
 * runs the engine's tasks and a timer (unref'd) expires batches past their window; on AWS the batch worker
 * function does both (SQS tasks, a schedule).
 */
export function createBatchesApi(runtime: ServiceRuntime, requestLimits: RequestLimits, plan: PlanLimits): BatchesApi | undefined {
  const engine = runtimeBatchEngine(runtime, requestLimits, plan);
  if (!engine) return undefined;
  const local = runtime.batches?.localQueue;
  if (local) {
    local.attach(engine);
    const sweep = setInterval(() => {
      engine.expireDue().catch((error: unknown) => logger.error('batch expiry sweep failed', { error: error as Error }));
      // Files past their retention go too (S3 has a lifecycle rule for that on AWS).
      runtime.files?.deleteExpired?.().catch((error: unknown) => logger.error('file expiry sweep failed', { error: error as Error }));
    }, EXPIRY_SWEEP_MS);
    sweep.unref();
  }
  return new BatchesApi(engine);
}
