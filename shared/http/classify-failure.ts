import { RerankError, toRerankError } from '../core/rerank-error.js';

/** What AWS SDK v3 errors carry when the service throttled the call (its retries already ran out). */
interface ThrottledSdkError {
  readonly $retryable?: { readonly throttling?: boolean };
  readonly $metadata?: { readonly httpStatusCode?: number };
}

const isThrottled = (error: unknown): boolean => {
  if (typeof error !== 'object' || error === null) return false;
  const { $retryable, $metadata } = error as ThrottledSdkError;
  return $retryable?.throttling === true || $metadata?.httpStatusCode === 429;
};

/**
 * Any failure becomes a RerankError for the dialect to format. A backing store or queue that throttled
 * us is overload, not a bug: the client gets 429 and may retry, instead of a 500.
 */
export function classifyFailure(error: unknown): RerankError {
  if (!(error instanceof RerankError) && isThrottled(error)) {
    return new RerankError('rate_limited', 'the service is busy; retry shortly', { cause: error });
  }
  return toRerankError(error);
}
