import type { RerankOutcome } from '../../core/rerank-outcome.js';
import { declaredParse } from '../define-wire-fields.js';
import type { Dialect, DialectResponse } from '../dialect.js';
import { formatLlamaStackError } from './llama-stack-error-envelope.js';
import { llamaStackRequestFields } from './llama-stack-request-fields.js';
import { llamaStackErrorSchema, llamaStackResponseSchema } from './llama-stack-response-schema.js';
import { EXAMPLE_DOCUMENTS, EXAMPLE_QUERY } from '../example-texts.js';

export const LLAMA_STACK_RERANK_PATH = '/v1alpha/inference/rerank';

/**
 * Llama Stack's alpha inference rerank: `POST /v1alpha/inference/rerank`
 * `{model, query, items, max_num_results}` -> `{data:[{index, relevance_score}]}`. `query` and each item are a
 * string or an OpenAI-style text part `{type:"text", text}`; image parts are refused (a text reranker cannot
 * score them). `model` is required by Llama Stack; here its absence means the default model.
 * Extras as on `/v1/rerank`: `raw_scores`, `rerank_threshold`, `batch_size`. Errors: see formatLlamaStackError.
 */
export const llamaStackDialect: Dialect = {
  name: 'llama-stack',
  paths: [LLAMA_STACK_RERANK_PATH],
  example: { query: EXAMPLE_QUERY, items: EXAMPLE_DOCUMENTS, max_num_results: 2 },
  ...declaredParse(llamaStackRequestFields),
  responseSchema: llamaStackResponseSchema,
  errorSchema: llamaStackErrorSchema,

  formatOutcome(outcome: RerankOutcome): DialectResponse {
    return { status: 200, body: { data: outcome.results.map((r) => ({ index: r.index, relevance_score: r.score })) } };
  },

  formatError: formatLlamaStackError,
};
