import type { RerankError, RerankErrorKind } from '../../core/rerank-error.js';
import type { DialectResponse } from '../dialect.js';

/**
 * google.rpc.Code names for each failure: Google's clients (google-gax) read `error.status` to pick the error's
 * code, and print `error.message`. The HTTP status stays the service's own.
 */
const GOOGLE_STATUS: Readonly<Record<RerankErrorKind, string>> = {
  invalid_request: 'INVALID_ARGUMENT',
  unauthorized: 'UNAUTHENTICATED',
  not_found: 'NOT_FOUND',
  method_not_allowed: 'UNIMPLEMENTED',
  payload_too_large: 'INVALID_ARGUMENT',
  unsupported_media_type: 'INVALID_ARGUMENT',
  uri_too_long: 'INVALID_ARGUMENT',
  conflict: 'ABORTED',
  already_exists: 'ALREADY_EXISTS',
  unprocessable: 'FAILED_PRECONDITION',
  rate_limited: 'RESOURCE_EXHAUSTED',
  upstream: 'UNAVAILABLE',
  still_running: 'DEADLINE_EXCEEDED',
  timed_out: 'DEADLINE_EXCEEDED',
  model_failed: 'INTERNAL',
  internal: 'INTERNAL',
};

/** Google's JSON error: `{"error": {"code", "message", "status"}}`. */
export function formatGoogleError(error: RerankError): DialectResponse {
  return { status: error.status, body: { error: { code: error.status, message: error.publicMessage, status: GOOGLE_STATUS[error.kind] } } };
}
