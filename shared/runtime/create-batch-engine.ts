import { InMemoryQuotaLedger } from '../adapters/memory/in-memory-quota-ledger.js';
import { BatchEngine } from '../batches/batch-engine.js';
import type { QuotaAmounts, QuotaLedger } from '../quota/quota-ledger.js';
import type { BatchEngineDeps } from '../batches/batch-engine-deps.js';
import type { RequestLimits } from '../core/validate-request.js';
import type { BodyAdmissionDeps } from '../dialects/admit-body.js';
import { batchLineAdmission } from '../dialects/batch-line-admission.js';

export type BatchEngineOptions = Omit<BatchEngineDeps, 'admission' | 'maxDocumentChars' | 'quota'> &
  Pick<BodyAdmissionDeps, 'service' | 'plan'> & {
    /** The API's per-request limits, which every line's body meets as a request would. */
    readonly requestLimits: RequestLimits;
    /** The keys' quota ledger the Files API reserves on; absent = one of the engine's own, in memory. */
    readonly quota?: QuotaLedger;
    /** What a key may store (its batches' result lines count as they are written). Absent = unbounded. */
    readonly storage?: Pick<QuotaAmounts, 'files' | 'stored_bytes'>;
  };

/** The batch engine over the given ports, admitting lines exactly as the API's routes admit bodies. */
export function createBatchEngine(options: BatchEngineOptions): BatchEngine {
  const { service, plan, requestLimits, quota, storage, ...deps } = options;
  return new BatchEngine({
    ...deps,
    quota: { ledger: quota ?? new InMemoryQuotaLedger(), limits: { ...storage, running_batches: deps.limits.maxRunningBatches } },
    admission: batchLineAdmission({ service, plan, limits: requestLimits }),
    ...(requestLimits.maxDocumentChars === undefined ? {} : { maxDocumentChars: requestLimits.maxDocumentChars }),
  });
}
