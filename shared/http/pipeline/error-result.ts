import type { RerankError } from '../../core/rerank-error.js';
import type { Dialect, DialectContext } from '../../dialects/dialect.js';
import { logger } from '../../observability/logger.js';
import { recordRequestFailure } from '../../observability/record-request-failure.js';
import { json, type ApiResult } from './api-exchange.js';

/** A failure answered in the dialect's own error envelope (internal texts never leak), logged when it is the service's, counted by kind. */
export function errorResult(dialect: Dialect, error: RerankError, context: DialectContext): ApiResult {
  if (error.status >= 500 && error.kind !== 'still_running') {
    logger.error('request failed', {
      requestId: context.requestId,
      kind: error.kind,
      error: error.cause instanceof Error ? error.cause : error,
    });
  }
  const formatted = dialect.formatError(error, context);
  recordRequestFailure(error.kind, formatted.status);
  return json(formatted.status, formatted.body, { ...formatted.headers, ...error.headers });
}
