import type { RerankOutcome } from '../../core/rerank-outcome.js';
import type { RerankRequest } from '../../core/rerank-request.js';
import { declaredParse } from '../define-wire-fields.js';
import type { Dialect, DialectContext, DialectResponse } from '../dialect.js';
import { EXAMPLE_DOCUMENTS, EXAMPLE_QUERY } from '../example-texts.js';
import { formatMessageAndOpenAiError } from '../openai/openai-error-envelope.js';
import { messageAndOpenAiErrorSchema } from '../openai/openai-response-schema.js';
import { mixedbreadRequestFields } from './mixedbread-request-fields.js';
import { mixedbreadResponseSchema } from './mixedbread-response-schema.js';

/** `@mixedbread/sdk` posts `rerank()` to `{baseURL}/v1/reranking`: its baseURL is this service's root. */
const MIXEDBREAD_RERANK_PATH = '/v1/reranking';

/**
 * Mixedbread rerank: `POST /v1/reranking {model, query, input, top_k, return_input, rank_fields, rewrite_query}` ->
 * `{object: "list", data: [{index, score, object: "rank_result", input?}], usage, model, top_k, return_input}` best
 * first, scores in [0, 1]. Errors: `{message, error}` (the SDK's APIError prints `message`).
 * Extensions: `rerank_threshold`, `batch_size`.
 */
export const mixedbreadDialect: Dialect = {
  name: 'mixedbread',
  paths: [MIXEDBREAD_RERANK_PATH],
  example: { model: 'mixedbread-ai/mxbai-rerank-large-v2', query: EXAMPLE_QUERY, input: EXAMPLE_DOCUMENTS, top_k: 2, return_input: true },
  ...declaredParse(mixedbreadRequestFields),
  responseSchema: mixedbreadResponseSchema,
  errorSchema: { ...messageAndOpenAiErrorSchema, title: 'MixedbreadError' },

  formatOutcome(outcome: RerankOutcome, _context: DialectContext, request?: RerankRequest): DialectResponse {
    const returnInput = request?.returnDocuments ?? outcome.results.some((r) => r.document !== undefined);
    return {
      status: 200,
      body: {
        object: 'list',
        data: outcome.results.map((r) => ({
          index: r.index,
          score: r.score,
          object: 'rank_result',
          ...(r.document ? { input: r.document.source?.['input'] ?? r.document.text } : {}),
        })),
        usage: { prompt_tokens: outcome.usage.totalTokens, total_tokens: outcome.usage.totalTokens, completion_tokens: 0 },
        model: outcome.model,
        // A queued job's poll has no request: the number returned is what was asked for then.
        top_k: request?.topN ?? outcome.results.length,
        return_input: returnInput,
      },
    };
  },

  formatError: formatMessageAndOpenAiError,
};
