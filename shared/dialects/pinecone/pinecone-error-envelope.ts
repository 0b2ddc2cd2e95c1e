import type { RerankError, RerankErrorKind } from '../../core/rerank-error.js';
import type { DialectResponse } from '../dialect.js';

/** Pinecone's error codes (its ErrorResponse `error.code`, gRPC-style names). */
const PINECONE_CODE: Readonly<Record<RerankErrorKind, string>> = {
  invalid_request: 'INVALID_ARGUMENT',
  unauthorized: 'UNAUTHENTICATED',
  not_found: 'NOT_FOUND',
  method_not_allowed: 'UNIMPLEMENTED',
  payload_too_large: 'OUT_OF_RANGE',
  unsupported_media_type: 'INVALID_ARGUMENT',
  uri_too_long: 'INVALID_ARGUMENT',
  conflict: 'ABORTED',
  already_exists: 'ALREADY_EXISTS',
  unprocessable: 'UNPROCESSABLE_ENTITY',
  rate_limited: 'RESOURCE_EXHAUSTED',
  upstream: 'UNAVAILABLE',
  still_running: 'DEADLINE_EXCEEDED',
  timed_out: 'DEADLINE_EXCEEDED',
  model_failed: 'INTERNAL',
  internal: 'INTERNAL',
};

/** `{status, error: {code, message}}` with the service's own status. */
export function formatPineconeError(error: RerankError): DialectResponse {
  return { status: error.status, body: { status: error.status, error: { code: PINECONE_CODE[error.kind], message: error.publicMessage } } };
}
