import { RerankError } from './rerank-error.js';

/**
 * A synchronous request whose scoring outlived its deadline (RERANK_SYNC_TIMEOUT_MS): 504 in every
 * dialect's envelope with the way out, and the scorer stops at its next batch (ScoreOptions.signal).
 */
export class ScoringTimedOutError extends RerankError {
  /** `unqueueable`: why this request cannot run as a job (it is then not offered as the way out). */
  constructor(
    readonly timeoutMs: number,
    documents: number,
    unqueueable?: string,
  ) {
    super(
      'timed_out',
      `scoring ${documents} documents did not finish within ${timeoutMs / 1000} s and was stopped; ` +
        (unqueueable === undefined
          ? 'send the request as a job ("Prefer: respond-async" or POST /v1/rerank/jobs), or fewer or shorter documents'
          : `it cannot run as a job (${unqueueable}): send fewer or shorter documents`),
    );
    this.name = 'ScoringTimedOutError';
  }
}
