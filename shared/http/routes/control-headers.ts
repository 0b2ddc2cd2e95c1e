import type { RerankOutcome } from '../../core/rerank-outcome.js';
import { truncatedHeader } from '../../core/request-controls.js';

/**
 * What the model cut and which sent controls it had no use for, in headers so no JSON reply gains a key: on a
 * synchronous answer, a waited-for job's, and a job's poll once it succeeded.
 */
export function controlHeaders(outcome: RerankOutcome): Record<string, string> {
  const truncated = truncatedHeader(outcome.cuts);
  return {
    ...(truncated === undefined ? {} : { 'x-rerank-truncated': truncated }),
    ...(outcome.unusedControls?.length ? { 'x-rerank-unused-controls': outcome.unusedControls.join(', ') } : {}),
  };
}
