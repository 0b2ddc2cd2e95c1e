import type { PlanLimits } from '../core/plan-request.js';
import type { RequestLimits } from '../core/validate-request.js';
import type { ServiceConfig } from '../config/service-config.js';

/** The per-request limits and the sync/job plan every rerank route applies: batch lines meet the same ones. */
export function apiLimitsOf(config: ServiceConfig): {
  readonly limits: RequestLimits & { readonly maxBodyBytes: number; readonly maxPathChars: number };
  readonly plan: PlanLimits;
} {
  return {
    limits: {
      maxBodyBytes: config.maxBodyBytes,
      maxPathChars: config.maxPathChars,
      maxDocuments: config.maxDocuments,
      maxBatchSize: config.maxBatchSize,
      maxQueryChars: config.maxQueryChars,
      maxDocumentChars: config.maxDocumentChars,
      maxInstructionChars: config.maxInstructionChars,
    },
    plan: {
      syncMaxDocuments: config.jobs.syncMaxDocuments,
      syncMaxChars: config.jobs.syncMaxChars,
      defaultBatchSize: config.jobs.defaultBatchSize,
      // Half the deadline: the estimate is a pace times estimated tokens, rough by nature.
      syncBudgetSeconds: config.syncTimeoutMs / 2000,
    },
  };
}
