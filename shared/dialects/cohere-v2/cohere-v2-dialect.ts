import { invalidRequest } from '../../core/rerank-error.js';
import type { RerankOutcome } from '../../core/rerank-outcome.js';
import type { RerankDocument, RerankRequest } from '../../core/rerank-request.js';
import type { Dialect, DialectResponse } from '../dialect.js';
import { documentObject } from '../document-object.js';
import {
  describeJsonValue,
  expectObject,
  readOptionalBoolean,
  readRawScoresActivation,
  readOptionalInteger,
  readOptionalNumber,
  readOptionalString,
  readString,
} from '../wire-fields.js';
import { formatCohereV2Error } from './cohere-v2-error-envelope.js';
import { cohereV2RequestSchema } from './cohere-v2-request-schema.js';
import { cohereV2ErrorSchema, cohereV2ResponseSchema } from './cohere-v2-response-schema.js';

/**
 * `max_tokens_per_doc`, approximated with whitespace tokens: a document longer than that many words is cut to
 * its first words. Above the model's own limit the model's tokenizer truncates anyway, so large values
 * (Cohere's default is 4096) change nothing. The untruncated text is kept as the returned document.
 */
export function truncateWords(text: string, maxTokens: number | undefined): string {
  if (maxTokens === undefined) return text;
  const words = text.split(/\s+/).filter(Boolean);
  return words.length <= maxTokens ? text : words.slice(0, maxTokens).join(' ');
}

/** Cohere v2 takes strings only (v1's object documents and rank_fields were dropped). */
function readStringDocuments(value: unknown, maxTokens: number | undefined): RerankDocument[] {
  if (value === undefined || value === null) throw invalidRequest('documents is required', 'documents');
  if (!Array.isArray(value)) throw invalidRequest(`documents must be an array of strings, got ${describeJsonValue(value)}`, 'documents');
  return value.map((item: unknown, i): RerankDocument => {
    if (typeof item !== 'string') {
      throw invalidRequest(`documents[${i}] must be a string, got ${describeJsonValue(item)} (Cohere v2 accepts strings only)`, `documents[${i}]`);
    }
    const text = truncateWords(item, maxTokens);
    return text === item ? { text } : { text, source: { text: item } };
  });
}

/**
 * Cohere v2 rerank: `POST /v2/rerank` `{model, query, documents (strings), top_n, max_tokens_per_doc}` ->
 * `{id, results:[{index, relevance_score}], meta:{api_version:{version:"2"}, billed_units:{search_units:1}}}`.
 * `model` is required by Cohere; here its absence means the default model. Extensions: `return_documents`
 * (v1's `document:{text}` on every result; v2 dropped it), `raw_scores`, `rerank_threshold`, `batch_size`.
 */
export const cohereV2Dialect: Dialect = {
  name: 'cohere-v2',
  requestSchema: cohereV2RequestSchema,
  responseSchema: cohereV2ResponseSchema,
  errorSchema: cohereV2ErrorSchema,
  paramNames: { query: 'query', documents: 'documents', topN: 'top_n', batchSize: 'batch_size' },

  parse(body: unknown): RerankRequest {
    const obj = expectObject(body, 'body');
    const maxTokens = readOptionalInteger(obj, 'max_tokens_per_doc', 'max_tokens_per_doc', 1);
    return {
      model: readOptionalString(obj, 'model', 'model'),
      query: readString(obj, 'query', 'query'),
      documents: readStringDocuments(obj['documents'], maxTokens),
      topN: readOptionalInteger(obj, 'top_n', 'top_n', 0),
      returnDocuments: readOptionalBoolean(obj, 'return_documents', 'return_documents') ?? false,
      threshold: readOptionalNumber(obj, 'rerank_threshold', 'rerank_threshold'),
      batchSize: readOptionalInteger(obj, 'batch_size', 'batch_size', 1),
      activation: readRawScoresActivation(obj, 'raw_scores', 'raw_scores'),
      prompt: undefined,
    };
  },

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
