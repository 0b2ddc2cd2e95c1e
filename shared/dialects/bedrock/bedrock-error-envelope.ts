import type { RerankError, RerankErrorKind } from '../../core/rerank-error.js';
import type { DialectResponse } from '../dialect.js';

/** The exceptions bedrock-agent-runtime and bedrock-runtime model (their SDKs raise a class of that name). */
type BedrockException =
  | 'ValidationException'
  | 'AccessDeniedException'
  | 'ResourceNotFoundException'
  | 'ConflictException'
  | 'ThrottlingException'
  | 'BadGatewayException'
  | 'InternalServerException';

/**
 * Each failure as the Bedrock exception a client would catch for it. The status stays the service's own (401 for a
 * refused key, 413 for a body too large, 504 past the deadline), as AWS SDKs pick the exception by the header.
 */
const BEDROCK_ERROR: Readonly<Record<RerankErrorKind, BedrockException>> = {
  invalid_request: 'ValidationException',
  unauthorized: 'AccessDeniedException',
  not_found: 'ResourceNotFoundException',
  method_not_allowed: 'ValidationException',
  payload_too_large: 'ValidationException',
  unsupported_media_type: 'ValidationException',
  uri_too_long: 'ValidationException',
  conflict: 'ConflictException',
  already_exists: 'ConflictException',
  unprocessable: 'ValidationException',
  rate_limited: 'ThrottlingException',
  upstream: 'BadGatewayException',
  still_running: 'InternalServerException',
  timed_out: 'InternalServerException',
  model_failed: 'InternalServerException',
  internal: 'InternalServerException',
};

/** AWS's JSON protocols: `{message}` with the exception's name in `x-amzn-ErrorType`. */
export function formatBedrockError(error: RerankError): DialectResponse {
  return { status: error.status, body: { message: error.publicMessage }, headers: { 'x-amzn-ErrorType': BEDROCK_ERROR[error.kind] } };
}
