import type { RerankError, RerankErrorKind } from '../../core/rerank-error.js';
import type { RerankOutcome } from '../../core/rerank-outcome.js';
import type { RerankRequest } from '../../core/rerank-request.js';
import type { Dialect, DialectContext, DialectResponse } from '../dialect.js';
import { documentObject } from '../document-object.js';
import {
  expectObject,
  readDocuments,
  optionalTruncate,
  readOptionalBoolean,
  readRawScoresActivation,
  readOptionalInteger,
  readOptionalNumber,
  readOptionalString,
  readString,
  type JsonObject,
} from '../wire-fields.js';
import { dashScopeRequestSchema } from './dashscope-request-schema.js';
import { dashScopeErrorSchema, dashScopeResponseSchema } from './dashscope-response-schema.js';

/** DashScope's error codes, as its SDKs and clients switch on them. */
const DASHSCOPE_CODE: Readonly<Record<RerankErrorKind, string>> = {
  invalid_request: 'InvalidParameter',
  unauthorized: 'InvalidApiKey',
  not_found: 'NotFound',
  method_not_allowed: 'MethodNotAllowed',
  payload_too_large: 'RequestTooLarge',
  unsupported_media_type: 'UnsupportedMediaType',
  rate_limited: 'Throttling',
  upstream: 'InternalError.Upstream',
  internal: 'InternalError',
};

/**
 * Alibaba DashScope text-rerank: `POST /api/v1/services/rerank/text-rerank/text-rerank`
 * `{model, input:{query, documents}, parameters:{top_n, return_documents}}` ->
 * `{output:{results[...]}, usage:{total_tokens}, request_id}`; errors `{code, message, request_id}`.
 */
export const dashScopeDialect: Dialect = {
  name: 'dashscope',
  requestSchema: dashScopeRequestSchema,
  responseSchema: dashScopeResponseSchema,
  errorSchema: dashScopeErrorSchema,
  paramNames: { query: 'input.query', documents: 'input.documents', topN: 'parameters.top_n', batchSize: 'parameters.batch_size' },

  parse(body: unknown): RerankRequest {
    const obj = expectObject(body, 'body');
    const input = expectObject(obj['input'], 'input');
    const parameters: JsonObject = obj['parameters'] === undefined || obj['parameters'] === null ? {} : expectObject(obj['parameters'], 'parameters');
    return {
      model: readOptionalString(obj, 'model', 'model'),
      query: readString(input, 'query', 'input.query'),
      documents: readDocuments(input['documents'], 'input.documents'),
      topN: readOptionalInteger(parameters, 'top_n', 'parameters.top_n', 0),
      returnDocuments: readOptionalBoolean(parameters, 'return_documents', 'parameters.return_documents') ?? false,
      threshold: readOptionalNumber(parameters, 'rerank_threshold', 'parameters.rerank_threshold'),
      batchSize: readOptionalInteger(parameters, 'batch_size', 'parameters.batch_size', 1),
      activation: readRawScoresActivation(parameters, 'raw_scores', 'parameters.raw_scores'),
      // qwen3-rerank takes a task instruction; our scorers may use it.
      prompt: readOptionalString(parameters, 'instruct', 'parameters.instruct'),
      ...optionalTruncate(readOptionalBoolean(parameters, 'truncate', 'parameters.truncate')),
    };
  },

  formatOutcome(outcome: RerankOutcome, context: DialectContext): DialectResponse {
    return {
      status: 200,
      body: {
        output: {
          results: outcome.results.map((r) => ({
            index: r.index,
            relevance_score: r.score,
            ...(r.document ? { document: documentObject(r.document) } : {}),
          })),
        },
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
