import type { BatchLimits } from '../../shared/batches/batch-limits.js';
import type { Scorer } from '../../shared/core/scorer.js';
import type { ApiApp } from '../../shared/http/api-app.js';
import type { QuotaLedger } from '../../shared/quota/quota-ledger.js';
import { testRuntime, type BatchLane, type BatchLaneOptions } from './test-runtime.js';

export { ManualBatchQueue } from './test-runtime.js';

export interface BatchTestRuntime extends BatchLane {
  readonly app: ApiApp;
  /** The keys' quota ledger the Files API and the engines share. */
  readonly quota: QuotaLedger;
}

/**
 * The batch tests' preset of THE test runtime (testRuntime): `/v1/batches` and `/v1/files` over in-memory ports,
 * operator keys `key-a` and `key-b`, the small request limits these tests assume, a hand-driven task queue and a clock
 * the test moves.
 */
export function batchTestRuntime(
  scorers: readonly Scorer[],
  limits: Partial<BatchLimits> = {},
  options: Pick<BatchLaneOptions, 'files' | 'maxStoredBytesPerKey' | 'analysis'> = {},
): BatchTestRuntime {
  const runtime = testRuntime({
    scorers,
    apiKeys: ['key-a', 'key-b'],
    limits: { maxQueryChars: 1000, maxDocumentChars: 1000 },
    batches: { limits, ...options },
  });
  return { app: runtime.app, quota: runtime.quota, ...(runtime.batches as BatchLane) };
}
