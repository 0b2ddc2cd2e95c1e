import { BatchEngine } from '../../batches/batch-engine.js';
import type { BatchEngineDeps } from '../../batches/batch-engine-deps.js';
import type { RequestLimits } from '../../core/validate-request.js';
import { routeBodyAdmission, type RouteAdmissionDeps } from './route-body-admission.js';

export type BatchEngineOptions = Omit<BatchEngineDeps, 'admission' | 'maxDocumentChars'> &
  Pick<RouteAdmissionDeps, 'service' | 'plan'> & {
    /** The API's per-request limits, which every line's body meets as a request would. */
    readonly requestLimits: RequestLimits;
  };

/** The batch engine over the given ports, admitting lines exactly as this API's routes admit bodies. */
export function createBatchEngine(options: BatchEngineOptions): BatchEngine {
  const { service, plan, requestLimits, ...deps } = options;
  return new BatchEngine({
    ...deps,
    admission: routeBodyAdmission({ service, plan, limits: requestLimits }),
    ...(requestLimits.maxDocumentChars === undefined ? {} : { maxDocumentChars: requestLimits.maxDocumentChars }),
  });
}
