import type { RerankRequest } from '../core/rerank-request.js';
import { validateRerankRequest, type RequestLimits } from '../core/validate-request.js';
import type { Dialect } from './dialect.js';
import { validateRequestBody } from './request-body-validator.js';

/**
 * A body as a route of `dialect` reads it: the published schema decides what is well-formed, the dialect maps
 * its fields onto a RerankRequest, and the core checks what a schema cannot say (blank query, limits), naming
 * fields as the dialect spells them. Every route and every batch line reads bodies through this one function.
 */
export function readDialectRequest(dialect: Dialect, body: unknown, limits: RequestLimits): RerankRequest {
  validateRequestBody(dialect.requestSchema, body);
  const parsed = dialect.parse(body);
  return validateRerankRequest(parsed, dialect.paramNames(parsed), limits, { allowEmptyDocuments: dialect.acceptsEmptyDocuments === true });
}
