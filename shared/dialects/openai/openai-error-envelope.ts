import type { RerankError, RerankErrorKind } from '../../core/rerank-error.js';
import type { DialectResponse } from '../dialect.js';

/** OpenAI's `error.type` / `error.code` vocabulary, which OpenAI-, Jina- and Cohere-style clients print as-is. */
const OPENAI_ERROR: Readonly<Record<RerankErrorKind, { type: string; code: string }>> = {
  invalid_request: { type: 'invalid_request_error', code: 'invalid_value' },
  unauthorized: { type: 'invalid_request_error', code: 'invalid_api_key' },
  not_found: { type: 'invalid_request_error', code: 'not_found' },
  method_not_allowed: { type: 'invalid_request_error', code: 'method_not_allowed' },
  payload_too_large: { type: 'invalid_request_error', code: 'payload_too_large' },
  unsupported_media_type: { type: 'invalid_request_error', code: 'unsupported_media_type' },
  uri_too_long: { type: 'invalid_request_error', code: 'uri_too_long' },
  conflict: { type: 'invalid_request_error', code: 'conflict' },
  already_exists: { type: 'invalid_request_error', code: 'already_exists' },
  unprocessable: { type: 'invalid_request_error', code: 'unprocessable' },
  rate_limited: { type: 'rate_limit_error', code: 'rate_limit_exceeded' },
  upstream: { type: 'api_error', code: 'upstream_error' },
  still_running: { type: 'api_error', code: 'job_still_running' },
  timed_out: { type: 'api_error', code: 'timeout' },
  model_failed: { type: 'server_error', code: 'model_error' },
  internal: { type: 'server_error', code: 'internal_error' },
};

/** `{"error":{"message","type","param","code"}}`, shared by the OpenAI-compatible and chat dialects. */
export function formatOpenAiError(error: RerankError): DialectResponse {
  const { type, code } = OPENAI_ERROR[error.kind];
  return {
    status: error.status,
    body: { error: { message: error.publicMessage, type, param: error.param ?? null, code } },
  };
}

/**
 * Cohere's API answers errors as `{"message": "..."}` and v1-style clients (Cohere's SDK, LangChain) read
 * that; OpenAI-style readers read `error.message`. `{"message", "error":{...}}` carries the same text for both.
 */
export function formatMessageAndOpenAiError(error: RerankError): DialectResponse {
  const openAi = formatOpenAiError(error);
  return { status: openAi.status, body: { message: error.publicMessage, ...(openAi.body as Record<string, unknown>) } };
}
