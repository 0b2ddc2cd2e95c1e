import type { BatchEngine } from '../batches/batch-engine.js';
import type { PlanLimits } from '../core/plan-request.js';
import type { RequestLimits } from '../core/validate-request.js';
import { candidateSetFusionOf } from './candidate-set-fusion-of.js';
import { createBatchEngine } from './create-batch-engine.js';
import { fileLimitsOf } from './files-service-runtime.js';
import { fuserOf, type ServiceRuntime } from './service-runtime.js';

/** The batch engine over this runtime's ports, admitting lines with the API's own limits (API and batch worker). */
export function runtimeBatchEngine(runtime: ServiceRuntime, requestLimits: RequestLimits, plan: PlanLimits): BatchEngine | undefined {
  const { batches, files } = runtime;
  if (!batches || !files) return undefined;
  const fileLimits = fileLimitsOf(runtime);
  return createBatchEngine({
    store: batches.store,
    files,
    queue: batches.queue,
    scorerFor: (modelId) => runtime.scorers.get(modelId),
    fuserFor: (modelId) => fuserOf(runtime.scorers, modelId),
    setFusionFor: (modelId) => candidateSetFusionOf(runtime.scorers, modelId),
    limits: batches.limits,
    ...(batches.analysis ? { analysis: batches.analysis } : {}),
    // The ledger the Files API reserves on: a batch's output and the key's files share one stored-bytes bound.
    ...(batches.quota ? { quota: batches.quota } : {}),
    storage: { files: fileLimits.maxFilesPerKey, stored_bytes: fileLimits.maxStoredBytesPerKey },
    ...(batches.nowMs ? { nowMs: batches.nowMs } : {}),
    service: runtime.service,
    plan,
    requestLimits,
  });
}
