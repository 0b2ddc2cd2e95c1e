import type { RerankOutcome } from '../../core/rerank-outcome.js';
import type { Dialect, DialectResponse } from '../dialect.js';
import { formatMessageAndOpenAiError } from '../openai/openai-error-envelope.js';
import type { RerankError } from '../../core/rerank-error.js';

/**
 * Voyage's documented error body is `{detail}` (its only error schema), and the official `voyageai` Python client reads
 * `detail` to pick its error class; `message` and `error` stay for the clients of the OpenAI-style envelope.
 */
function formatVoyageError(error: RerankError): DialectResponse {
  const formatted = formatMessageAndOpenAiError(error);
  return { status: formatted.status, body: { detail: error.publicMessage, ...(formatted.body as Record<string, unknown>) } };
}
import { declaredParse } from '../define-wire-fields.js';
import { voyageRequestFields } from './voyage-request-fields.js';
import { voyageErrorSchema, voyageResponseSchema } from './voyage-response-schema.js';
import { EXAMPLE_DOCUMENTS, EXAMPLE_QUERY } from '../example-texts.js';

/** Voyage's SDK appends `/rerank` to its base URL; `/voyage/v1` keeps its `top_k`/`data` shape apart from `/v1/rerank`'s. */
export const VOYAGE_RERANK_PATH = '/voyage/v1/rerank';

/**
 * Voyage AI rerank: `POST {base}/rerank` `{query, documents, model, top_k, return_documents, truncation}` ->
 * `{object:"list", data:[{index, relevance_score, document?}], model, usage:{total_tokens}}`. Served under its own
 * base URL (`/voyage/v1`) because `top_k` and `data` collide with the OpenAI-style `/v1/rerank` shape.
 */
export const voyageDialect: Dialect = {
  name: 'voyage',
  paths: [VOYAGE_RERANK_PATH],
  example: { query: EXAMPLE_QUERY, documents: EXAMPLE_DOCUMENTS, top_k: 2, return_documents: true },
  ...declaredParse(voyageRequestFields),
  responseSchema: voyageResponseSchema,
  errorSchema: voyageErrorSchema,

  formatOutcome(outcome: RerankOutcome): DialectResponse {
    return {
      status: 200,
      body: {
        object: 'list',
        data: outcome.results.map((r) => ({
          index: r.index,
          relevance_score: r.score,
          ...(r.document ? { document: r.document.text } : {}),
        })),
        model: outcome.model,
        usage: { total_tokens: outcome.usage.totalTokens },
      },
    };
  },

  formatError: formatVoyageError,
};
