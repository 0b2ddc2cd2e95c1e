import { RerankError } from './rerank-error.js';

/**
 * A synchronous request whose scoring outlived its deadline (RERANK_SYNC_TIMEOUT_MS): 504 in every
 * dialect's envelope with the way out, and the scorer stops at its next batch (ScoreOptions.signal).
 */
export class ScoringTimedOutError extends RerankError {
  constructor(
    readonly timeoutMs: number,
    documents: number,
  ) {
    super(
      'timed_out',
      `scoring ${documents} documents did not finish within ${timeoutMs / 1000} s and was stopped; ` +
        'send the request as a job ("Prefer: respond-async" or POST /v1/rerank/jobs), or fewer or shorter documents',
    );
    this.name = 'ScoringTimedOutError';
  }
}
