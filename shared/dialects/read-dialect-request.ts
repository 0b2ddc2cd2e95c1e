import { invalidRequest } from '../core/rerank-error.js';
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
  refuseCorpusReference(dialect, body);
  const parsed = dialect.parse(body);
  return validateRerankRequest(parsed, dialect.paramNames(parsed), limits, { allowEmptyDocuments: dialect.acceptsEmptyDocuments === true });
}

/**
 * A corpus file stands for the documents only in a batch line, whose admission swaps it for them before this read:
 * one left in a body is a request to score documents the route never reads, refused rather than ignored.
 */
function refuseCorpusReference(dialect: Dialect, body: unknown): void {
  const path = dialect.corpus?.fileIdPath;
  if (!path) return;
  const sent = path.reduce<unknown>(
    (value, key) => (typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined),
    body,
  );
  if (sent === undefined || sent === null) return;
  const param = path.join('.');
  throw invalidRequest(`${param} is read in batch lines only (POST /v1/batches); list the documents here`, param);
}
