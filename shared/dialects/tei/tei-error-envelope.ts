import type { RerankError, RerankErrorKind } from '../../core/rerank-error.js';
import type { DialectResponse } from '../dialect.js';

type TeiErrorType = 'Unhealthy' | 'Backend' | 'Overloaded' | 'Validation' | 'Tokenizer' | 'Empty';

/**
 * TEI's error types, and the status TEI itself answers for those it defines (router/src/http/server.rs:
 * Validation 413, Tokenizer 422, Backend 424, Overloaded 429, Unhealthy 503, Empty 400). A body this service cannot
 * accept is 422 (what TEI answers for a body its JSON extractor rejects); failures TEI has no type for keep the
 * service's own status (401, 404, ...) with the nearest type.
 */
const TEI_ERROR: Readonly<Record<RerankErrorKind, { readonly errorType: TeiErrorType; readonly status?: number }>> = {
  invalid_request: { errorType: 'Validation', status: 422 },
  unauthorized: { errorType: 'Validation' },
  not_found: { errorType: 'Validation' },
  method_not_allowed: { errorType: 'Validation' },
  payload_too_large: { errorType: 'Validation', status: 413 },
  unsupported_media_type: { errorType: 'Validation' },
  uri_too_long: { errorType: 'Validation' },
  conflict: { errorType: 'Validation' },
  already_exists: { errorType: 'Validation' },
  unprocessable: { errorType: 'Validation', status: 422 },
  rate_limited: { errorType: 'Overloaded', status: 429 },
  upstream: { errorType: 'Backend', status: 424 },
  // TEI has no deadline of its own; the service's 504 with the nearest type.
  still_running: { errorType: 'Backend' },
  timed_out: { errorType: 'Backend' },
  model_failed: { errorType: 'Backend', status: 424 },
  internal: { errorType: 'Backend' },
};

export function formatTeiError(error: RerankError): DialectResponse {
  const { errorType, status } = TEI_ERROR[error.kind];
  return { status: status ?? error.status, body: { error: error.publicMessage, error_type: errorType } };
}
