import { InMemoryQuotaLedger } from '../adapters/memory/in-memory-quota-ledger.js';
import { BatchEngine } from '../batches/batch-engine.js';
import type { QuotaAmounts, QuotaLedger } from '../quota/quota-ledger.js';
import type { BatchEngineDeps } from '../batches/batch-engine-deps.js';
import type { ServiceConfig } from '../config/service-config.js';
import type { PlanLimits } from '../core/plan-request.js';
import type { RequestLimits } from '../core/validate-request.js';
import type { BodyAdmissionDeps } from '../dialects/admit-body.js';
import { batchLineAdmission } from '../dialects/batch-line-admission.js';
import type { FileStore } from '../files/file-store.js';
import type { BatchRuntime } from './batch-runtime.js';

export type BatchEngineOptions = Omit<BatchEngineDeps, 'admission' | 'maxDocumentChars' | 'quota'> &
  Pick<BodyAdmissionDeps, 'service' | 'plan'> & {
    /** The API's per-request limits, which every line's body meets as a request would. */
    readonly requestLimits: RequestLimits;
    /** The keys' quota ledger the Files API reserves on; absent = one of the engine's own, in memory. */
    readonly quota?: QuotaLedger;
    /** What a key may store (its batches' result lines count as they are written). Absent = unbounded. */
    readonly storage?: Pick<QuotaAmounts, 'files' | 'stored_bytes'>;
  };

/** What the engine asks of the models: the scorers, the fusion of a hybrid, and the service that resolves a line's model. */
export type BatchModels = Pick<BatchEngineOptions, 'scorerFor' | 'fuserFor' | 'setFusionFor' | 'service'>;

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

/**
 * The batch engine over a process's batch ports and these models, admitting lines with the API's own limits (the API,
 * the batch worker and the dead-letter consumer). Undefined where the process has no batch store or files.
 */
export function batchEngineOver(
  ports: { readonly config: ServiceConfig; readonly batches: BatchRuntime | undefined; readonly files?: FileStore | undefined },
  models: BatchModels,
  requestLimits: RequestLimits,
  plan: PlanLimits,
): BatchEngine | undefined {
  const { config, batches, files } = ports;
  if (!batches || !files) return undefined;
  return createBatchEngine({
    store: batches.store,
    files,
    queue: batches.queue,
    ...models,
    limits: batches.limits,
    ...(batches.analysis ? { analysis: batches.analysis } : {}),
    // The ledger the Files API reserves on: a batch's output and the key's files share one stored-bytes bound.
    ...(batches.quota ? { quota: batches.quota } : {}),
    storage: { files: config.files.maxFilesPerKey, stored_bytes: config.files.maxStoredBytesPerKey },
    ...(batches.nowMs ? { nowMs: batches.nowMs } : {}),
    plan,
    requestLimits,
  });
}
