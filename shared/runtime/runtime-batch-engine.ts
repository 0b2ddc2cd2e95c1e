import type { BatchEngine } from '../batches/batch-engine.js';
import type { PlanLimits } from '../core/plan-request.js';
import type { RequestLimits } from '../core/validate-request.js';
import { candidateSetFusionOf } from './candidate-set-fusion-of.js';
import { batchEngineOver } from './create-batch-engine.js';
import { fuserOf, type ServiceRuntime } from './service-runtime.js';

/** The batch engine over this runtime's ports and models, admitting lines with the API's own limits (API and batch worker). */
export function runtimeBatchEngine(runtime: ServiceRuntime, requestLimits: RequestLimits, plan: PlanLimits): BatchEngine | undefined {
  const models = {
    scorerFor: (modelId: string) => runtime.scorers.get(modelId),
    fuserFor: (modelId: string) => fuserOf(runtime.scorers, modelId),
    setFusionFor: (modelId: string) => candidateSetFusionOf(runtime.scorers, modelId),
    service: runtime.service,
  };
  return batchEngineOver(runtime, models, requestLimits, plan);
}
