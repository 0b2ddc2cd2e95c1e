import { RerankError } from '../core/rerank-error.js';

/** 429 in every dialect, carrying `Retry-After: retryAfterSeconds`. */
export class RateLimitedError extends RerankError {
  readonly retryAfterSeconds: number;

  constructor(message: string, retryAfterSeconds: number, options: { cause?: unknown } = {}) {
    super('rate_limited', message, { ...options, headers: { 'retry-after': String(retryAfterSeconds) } });
    this.name = 'RateLimitedError';
    this.retryAfterSeconds = retryAfterSeconds;
  }
}
