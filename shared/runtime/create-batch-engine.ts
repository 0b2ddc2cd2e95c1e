import { BatchEngine } from '../batches/batch-engine.js';
import type { BatchEngineDeps } from '../batches/batch-engine-deps.js';
import type { RequestLimits } from '../core/validate-request.js';
import type { BodyAdmissionDeps } from '../dialects/admit-body.js';
import { batchLineAdmission } from '../dialects/batch-line-admission.js';

export type BatchEngineOptions = Omit<BatchEngineDeps, 'admission' | 'maxDocumentChars'> &
  Pick<BodyAdmissionDeps, 'service' | 'plan'> & {
    /** The API's per-request limits, which every line's body meets as a request would. */
    readonly requestLimits: RequestLimits;
  };

/** The batch engine over the given ports, admitting lines exactly as the API's routes admit bodies. */
export function createBatchEngine(options: BatchEngineOptions): BatchEngine {
  const { service, plan, requestLimits, ...deps } = options;
  return new BatchEngine({
    ...deps,
    admission: batchLineAdmission({ service, plan, limits: requestLimits }),
    ...(requestLimits.maxDocumentChars === undefined ? {} : { maxDocumentChars: requestLimits.maxDocumentChars }),
  });
}
