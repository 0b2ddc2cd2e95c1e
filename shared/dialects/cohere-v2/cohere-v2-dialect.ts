import type { RerankOutcome } from '../../core/rerank-outcome.js';
import type { RerankRequest } from '../../core/rerank-request.js';
import { cohereMeta } from '../cohere-search-units.js';
import { declaredParse } from '../define-wire-fields.js';
import type { Dialect, DialectResponse } from '../dialect.js';
import { formatMessageAndOpenAiError } from '../openai/openai-error-envelope.js';
import { rankedResults } from '../openai/ranked-results.js';
import { cohereV2RequestFields } from './cohere-v2-request-fields.js';
import { cohereV2ErrorSchema, cohereV2ResponseSchema } from './cohere-v2-response-schema.js';
import { EXAMPLE_DOCUMENTS, EXAMPLE_QUERY } from '../example-texts.js';

/** The Cohere SDK appends `/v2/rerank` to its base URL: users who set `.../v1` (the base every other client takes) send `/v1/v2/rerank`. */
export const COHERE_V2_RERANK_PATH = '/v2/rerank';

/**
 * Cohere v2 rerank: `POST /v2/rerank` `{model, query, documents (strings), top_n, max_tokens_per_doc}` ->
 * `{id, results:[{index, relevance_score}], meta:{api_version:{version:"2"}, billed_units:{search_units}}}` (search units counted as Cohere counts them).
 * `model` is required by Cohere; here its absence means the default model. Extensions: `return_documents`
 * (v1's `document:{text}` on every result; v2 dropped it), `raw_scores`, `rerank_threshold`, `batch_size`.
 */
export const cohereV2Dialect: Dialect = {
  name: 'cohere-v2',
  paths: [COHERE_V2_RERANK_PATH, `/v1${COHERE_V2_RERANK_PATH}`],
  example: { query: EXAMPLE_QUERY, documents: EXAMPLE_DOCUMENTS, top_n: 2 },
  ...declaredParse(cohereV2RequestFields),
  responseSchema: cohereV2ResponseSchema,
  errorSchema: cohereV2ErrorSchema,

  formatOutcome(outcome: RerankOutcome, _context, request?: RerankRequest): DialectResponse {
    return {
      status: 200,
      body: {
        id: outcome.id,
        results: rankedResults(outcome),
        meta: cohereMeta('2', outcome, request),
      },
    };
  },

  // The same `{"message", "error":{...}}` superset as `/v1/rerank`, so Cohere and OpenAI readers both find the text.
  formatError: formatMessageAndOpenAiError,
};
