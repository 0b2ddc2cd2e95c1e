import type { RerankOutcome } from '../../core/rerank-outcome.js';
import type { Dialect, DialectResponse } from '../dialect.js';
import { formatMessageAndOpenAiError } from '../openai/openai-error-envelope.js';
import { messageAndOpenAiErrorSchema } from '../openai/openai-response-schema.js';
import { declaredParse } from '../define-wire-fields.js';
import { voyageRequestFields } from './voyage-request-fields.js';
import { voyageResponseSchema } from './voyage-response-schema.js';

/**
 * Voyage AI rerank: `POST {base}/rerank` `{query, documents, model, top_k, return_documents, truncation}` ->
 * `{object:"list", data:[{index, relevance_score, document?}], model, usage:{total_tokens}}`. Served under its own
 * base URL (`/voyage/v1`) because `top_k` and `data` collide with the OpenAI-style `/v1/rerank` shape.
 */
export const voyageDialect: Dialect = {
  name: 'voyage',
  ...declaredParse(voyageRequestFields),
  responseSchema: voyageResponseSchema,
  errorSchema: messageAndOpenAiErrorSchema,

  formatOutcome(outcome: RerankOutcome): DialectResponse {
    return {
      status: 200,
      body: {
        object: 'list',
        data: outcome.results.map((r) => ({ index: r.index, relevance_score: r.score, ...(r.document ? { document: r.document.text } : {}) })),
        model: outcome.model,
        usage: { total_tokens: outcome.usage.totalTokens },
      },
    };
  },

  formatError: formatMessageAndOpenAiError,
};
