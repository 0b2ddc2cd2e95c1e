import { invalidRequest } from '../../core/rerank-error.js';
import type { RerankOutcome } from '../../core/rerank-outcome.js';
import type { RerankDocument, RerankRequest } from '../../core/rerank-request.js';
import type { Dialect, DialectResponse } from '../dialect.js';
import { describeJsonValue, expectObject, readOptionalInteger, readOptionalNumber, readOptionalString, readRawScoresActivation } from '../wire-fields.js';
import { readContentItemText } from './interleaved-content.js';
import { formatLlamaStackError } from './llama-stack-error-envelope.js';
import { llamaStackRequestSchema } from './llama-stack-request-schema.js';
import { llamaStackErrorSchema, llamaStackResponseSchema } from './llama-stack-response-schema.js';

function readItems(value: unknown): RerankDocument[] {
  if (value === undefined || value === null) throw invalidRequest('items is required', 'items');
  if (!Array.isArray(value)) throw invalidRequest(`items must be an array, got ${describeJsonValue(value)}`, 'items');
  return value.map((item: unknown, i) => ({ text: readContentItemText(item, `items[${i}]`) }));
}

/**
 * Llama Stack's alpha inference rerank: `POST /v1alpha/inference/rerank`
 * `{model, query, items, max_num_results}` -> `{data:[{index, relevance_score}]}`. `query` and each item are a
 * string or an OpenAI-style text part `{type:"text", text}`; image parts are refused (a text reranker cannot
 * score them). `model` is required by Llama Stack; here its absence means the default model.
 * Extras as on `/v1/rerank`: `raw_scores`, `rerank_threshold`, `batch_size`. Errors: see formatLlamaStackError.
 */
export const llamaStackDialect: Dialect = {
  name: 'llama-stack',
  requestSchema: llamaStackRequestSchema,
  responseSchema: llamaStackResponseSchema,
  errorSchema: llamaStackErrorSchema,
  paramNames: { query: 'query', documents: 'items', topN: 'max_num_results', batchSize: 'batch_size' },

  parse(body: unknown): RerankRequest {
    const obj = expectObject(body, 'body');
    return {
      model: readOptionalString(obj, 'model', 'model'),
      query: readContentItemText(obj['query'], 'query'),
      documents: readItems(obj['items']),
      topN: readOptionalInteger(obj, 'max_num_results', 'max_num_results', 0),
      returnDocuments: false,
      threshold: readOptionalNumber(obj, 'rerank_threshold', 'rerank_threshold'),
      batchSize: readOptionalInteger(obj, 'batch_size', 'batch_size', 1),
      activation: readRawScoresActivation(obj, 'raw_scores', 'raw_scores'),
      prompt: undefined,
    };
  },

  formatOutcome(outcome: RerankOutcome): DialectResponse {
    return { status: 200, body: { data: outcome.results.map((r) => ({ index: r.index, relevance_score: r.score })) } };
  },

  formatError: formatLlamaStackError,
};
