import type { Scorer } from '../core/scorer.js';
import type { FileStore } from '../files/file-store.js';
import type { ChunkFuser } from '../engine/rank-chunk-scores.js';
import type { BatchAdmission } from './batch-admission.js';
import type { BatchLimits } from './batch-limits.js';
import type { BatchQuota } from './batch-quota.js';
import type { BatchStore } from './batch-store.js';
import type { BatchTaskQueue } from './batch-task-queue.js';
import type { CandidateSetFusion } from './candidate-set-fusion.js';
import type { CorpusAnalysisLedger } from './corpus-analysis-ledger.js';

/** The ports and settings the planner, chunk worker and finalizers share. */
export interface BatchEngineDeps {
  readonly store: BatchStore;
  readonly files: FileStore;
  readonly queue: BatchTaskQueue;
  readonly admission: BatchAdmission;
  /** The runtime's scorer catalog, by model id; throws UnknownModelError for an id it does not serve. */
  readonly scorerFor: (modelId: string) => Scorer;
  /** The fusion step of a splittable hybrid model (see JobPlan.fusion), over a request's whole candidate set. */
  readonly fuserFor?: (modelId: string) => ChunkFuser | undefined;
  /** The same fusion taken apart for a corpus, fused once over all its documents while streaming (min-max hybrids). */
  readonly setFusionFor?: (modelId: string) => CandidateSetFusion | undefined;
  readonly limits: BatchLimits;
  /** The key's quota ledger (shared with the Files API): running batches and the bytes its result lines keep. */
  readonly quota: BatchQuota;
  /** Where a corpus' first analysis is followed (the batch's `analysing_corpus` progress); absent = not shown. */
  readonly analysis?: CorpusAnalysisLedger;
  /** The API's document length limit, applied to corpus documents as to inline ones (cut when the line says `truncate`). */
  readonly maxDocumentChars?: number;
  /** Injected clock (expiry tests). */
  readonly nowMs?: () => number;
}

export const nowSeconds = (deps: Pick<BatchEngineDeps, 'nowMs'>): number => Math.floor((deps.nowMs ?? Date.now)() / 1000);
