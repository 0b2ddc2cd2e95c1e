import type { RerankOutcome } from '../../core/rerank-outcome.js';
import type { RerankRequest } from '../../core/rerank-request.js';
import { cohereMeta } from '../cohere-search-units.js';
import type { Dialect, DialectResponse } from '../dialect.js';
import { declaredParse } from '../define-wire-fields.js';
import { formatMessageAndOpenAiError } from './openai-error-envelope.js';
import { rankedResults } from './ranked-results.js';
import { openAiRequestFields } from './openai-request-fields.js';
import { messageAndOpenAiErrorSchema, openAiResponseSchema } from './openai-response-schema.js';
import { EXAMPLE_DOCUMENTS, EXAMPLE_QUERY } from '../example-texts.js';

/**
 * OpenAI-compatible rerank (Jina / Cohere v1 style): `POST /v1/rerank`
 * `{model, query, documents, top_n, return_documents}` -> `{id, model, results[{index, relevance_score, document?}], usage, meta}`
 * (`meta` is Cohere v1's: api_version and billed_units.search_units).
 * Extras other servers accept: `raw_scores` (TEI), `rerank_threshold` (a relevance cut-off), `batch_size` (queue fan-out),
 * Cohere v1's `rank_fields` (object documents scored as `field: value` lines) and `max_chunks_per_doc`
 * (long documents split into word windows, scored by their best chunk).
 */
export const openAiDialect: Dialect = {
  name: 'openai',
  paths: ['/v1/rerank', '/rerank'],
  example: { query: EXAMPLE_QUERY, documents: EXAMPLE_DOCUMENTS, top_n: 2, return_documents: true },
  ...declaredParse(openAiRequestFields),
  responseSchema: openAiResponseSchema,
  errorSchema: messageAndOpenAiErrorSchema,

  formatOutcome(outcome: RerankOutcome, _context, request?: RerankRequest): DialectResponse {
    return {
      status: 200,
      body: {
        id: outcome.id,
        object: 'rerank',
        model: outcome.model,
        results: rankedResults(outcome),
        // completion_tokens: Together AI's spec (and the AI SDK's Together provider) require it.
        usage: { prompt_tokens: outcome.usage.totalTokens, completion_tokens: 0, total_tokens: outcome.usage.totalTokens },
        // Cohere v1's meta: its SDK, LangChain and LiteLLM read billed_units.
        meta: cohereMeta('1', outcome, request),
      },
    };
  },

  formatError: formatMessageAndOpenAiError,
};
