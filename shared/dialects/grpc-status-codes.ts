import type { RerankErrorKind } from '../core/rerank-error.js';

/**
 * Each failure as a google.rpc.Code name (`INVALID_ARGUMENT`, `RESOURCE_EXHAUSTED`...): Google's JSON errors carry it in
 * `error.status` (google-gax picks its error's code by it) and Pinecone's in `error.code`, which it takes from the same
 * gRPC vocabulary. The HTTP status stays the service's own.
 */
export const GRPC_STATUS_CODE: Readonly<Record<RerankErrorKind, string>> = {
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
