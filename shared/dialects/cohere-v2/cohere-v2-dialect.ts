import type { RerankOutcome } from '../../core/rerank-outcome.js';
import { declaredParse } from '../define-wire-fields.js';
import type { Dialect, DialectResponse } from '../dialect.js';
import { documentObject } from '../document-object.js';
import { formatCohereV2Error } from './cohere-v2-error-envelope.js';
import { cohereV2RequestFields } from './cohere-v2-request-fields.js';
import { cohereV2ErrorSchema, cohereV2ResponseSchema } from './cohere-v2-response-schema.js';

/**
 * Cohere v2 rerank: `POST /v2/rerank` `{model, query, documents (strings), top_n, max_tokens_per_doc}` ->
 * `{id, results:[{index, relevance_score}], meta:{api_version:{version:"2"}, billed_units:{search_units:1}}}`.
 * `model` is required by Cohere; here its absence means the default model. Extensions: `return_documents`
 * (v1's `document:{text}` on every result; v2 dropped it), `raw_scores`, `rerank_threshold`, `batch_size`.
 */
export const cohereV2Dialect: Dialect = {
  name: 'cohere-v2',
  ...declaredParse(cohereV2RequestFields),
  responseSchema: cohereV2ResponseSchema,
  errorSchema: cohereV2ErrorSchema,

  formatOutcome(outcome: RerankOutcome): DialectResponse {
    return {
      status: 200,
      body: {
        id: outcome.id,
        results: outcome.results.map((r) => ({
          index: r.index,
          relevance_score: r.score,
          ...(r.document ? { document: documentObject(r.document) } : {}),
        })),
        // Billing is not ours to do; the field is there because Cohere clients read it.
        meta: { api_version: { version: '2' }, billed_units: { search_units: 1 } },
      },
    };
  },

  formatError: formatCohereV2Error,
};
