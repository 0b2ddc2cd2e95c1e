import type { RerankError, RerankErrorKind } from '../../core/rerank-error.js';
import type { RerankOutcome } from '../../core/rerank-outcome.js';
import type { Dialect, DialectContext, DialectResponse } from '../dialect.js';
import { rankedResults } from '../openai/ranked-results.js';
import { declaredParse } from '../define-wire-fields.js';
import { dashScopeRequestFields } from './dashscope-request-fields.js';
import { dashScopeErrorSchema, dashScopeResponseSchema } from './dashscope-response-schema.js';
import { EXAMPLE_DOCUMENTS, EXAMPLE_QUERY } from '../example-texts.js';

/** DashScope's error codes, as its SDKs and clients switch on them. */
const DASHSCOPE_CODE: Readonly<Record<RerankErrorKind, string>> = {
  invalid_request: 'InvalidParameter',
  unauthorized: 'InvalidApiKey',
  not_found: 'NotFound',
  method_not_allowed: 'MethodNotAllowed',
  payload_too_large: 'RequestTooLarge',
  unsupported_media_type: 'UnsupportedMediaType',
  uri_too_long: 'RequestURITooLong',
  conflict: 'Conflict',
  already_exists: 'Conflict',
  unprocessable: 'InvalidParameter',
  rate_limited: 'Throttling',
  upstream: 'InternalError.Upstream',
  still_running: 'RequestTimeOut',
  timed_out: 'RequestTimeOut',
  model_failed: 'InternalError.Algo',
  internal: 'InternalError',
};

export const DASHSCOPE_RERANK_PATH = '/api/v1/services/rerank/text-rerank/text-rerank';

/**
 * Alibaba DashScope text-rerank: `POST /api/v1/services/rerank/text-rerank/text-rerank`
 * `{model, input:{query, documents}, parameters:{top_n, return_documents}}` ->
 * `{output:{results[...]}, usage:{total_tokens}, request_id}`; errors `{code, message, request_id}`.
 */
export const dashScopeDialect: Dialect = {
  name: 'dashscope',
  paths: [DASHSCOPE_RERANK_PATH],
  example: { input: { query: EXAMPLE_QUERY, documents: EXAMPLE_DOCUMENTS }, parameters: { top_n: 2, return_documents: true } },
  ...declaredParse(dashScopeRequestFields),
  responseSchema: dashScopeResponseSchema,
  errorSchema: dashScopeErrorSchema,

  formatOutcome(outcome: RerankOutcome, context: DialectContext): DialectResponse {
    return {
      status: 200,
      body: {
        output: { results: rankedResults(outcome) },
        usage: { total_tokens: outcome.usage.totalTokens },
        request_id: context.requestId,
      },
    };
  },

  formatError(error: RerankError, context: DialectContext): DialectResponse {
    return {
      status: error.status,
      body: { code: DASHSCOPE_CODE[error.kind], message: error.publicMessage, request_id: context.requestId },
    };
  },
};
