import type { RerankOutcome } from '../../core/rerank-outcome.js';
import { declaredParse } from '../define-wire-fields.js';
import type { Dialect, DialectResponse } from '../dialect.js';
import { formatTeiError } from './tei-error-envelope.js';
import { isTeiBody, teiRequestFields } from './tei-request-fields.js';
import { teiErrorSchema, teiResponseSchema } from './tei-response-schema.js';
import { EXAMPLE_DOCUMENTS, EXAMPLE_QUERY } from '../example-texts.js';

/**
 * Hugging Face text-embeddings-inference: `POST /rerank {query, texts, raw_scores, return_text, truncate,
 * truncation_direction}` -> `[{index, score, text?}]`, errors `{error, error_type}`. Many RAG stacks are configured
 * for a TEI reranker; pointing them here needs only the base URL.
 */
export const teiDialect: Dialect = {
  name: 'tei',
  paths: [],
  example: { query: EXAMPLE_QUERY, texts: EXAMPLE_DOCUMENTS, return_text: true },
  // TEI clients post `{query, texts}` to `/rerank`: that body is answered in TEI's dialect; any other, in OpenAI's.
  sharesPath: { path: '/rerank', claims: isTeiBody },
  ...declaredParse(teiRequestFields),
  responseSchema: teiResponseSchema,
  errorSchema: teiErrorSchema,

  formatOutcome(outcome: RerankOutcome): DialectResponse {
    return {
      status: 200,
      body: outcome.results.map((r) => ({ index: r.index, score: r.score, ...(r.document ? { text: r.document.text } : {}) })),
    };
  },

  formatError: formatTeiError,
};
