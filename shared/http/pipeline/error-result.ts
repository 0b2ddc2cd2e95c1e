import { RateLimitedError } from '../../auth/rate-limited-error.js';
import type { RerankError } from '../../core/rerank-error.js';
import type { Dialect, DialectContext } from '../../dialects/dialect.js';
import { logger } from '../../observability/logger.js';
import { recordRequestFailure } from '../../observability/record-request-failure.js';
import { JobStillRunningError } from '../job-still-running-error.js';
import { MethodNotAllowedError } from './method-not-allowed-error.js';
import { json, type ApiResult } from './api-exchange.js';

/** What 202s, polls of running jobs and a 504 naming a job suggest to clients as a polling pace. */
export const RETRY_AFTER_SECONDS = '1';

/** The headers an error carries with it: when to retry, where the job's result will be, which methods to use. */
function headersOf(error: RerankError): Record<string, string> {
  if (error instanceof RateLimitedError) return { 'retry-after': String(error.retryAfterSeconds) };
  // Not a failure of the service: the job runs on; Location says where its result will be.
  if (error instanceof JobStillRunningError) return { location: error.pollPath, 'retry-after': RETRY_AFTER_SECONDS, 'x-should-retry': 'false' };
  if (error instanceof MethodNotAllowedError) return { allow: error.allowed.join(', ') };
  return {};
}

/** A failure answered in the dialect's own error envelope (internal texts never leak), logged when it is the service's, counted by kind. */
export function errorResult(dialect: Dialect, error: RerankError, context: DialectContext): ApiResult {
  if (error.status >= 500 && error.kind !== 'still_running') {
    logger.error('request failed', { requestId: context.requestId, kind: error.kind, error: error.cause instanceof Error ? error.cause : error });
  }
  const formatted = dialect.formatError(error, context);
  recordRequestFailure(error.kind, formatted.status);
  return json(formatted.status, formatted.body, { ...formatted.headers, ...headersOf(error) });
}
