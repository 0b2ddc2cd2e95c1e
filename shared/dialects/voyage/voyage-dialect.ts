import type { RerankOutcome } from '../../core/rerank-outcome.js';
import type { RerankRequest } from '../../core/rerank-request.js';
import type { Dialect, DialectResponse } from '../dialect.js';
import { formatMessageAndOpenAiError } from '../openai/openai-error-envelope.js';
import { messageAndOpenAiErrorSchema } from '../openai/openai-response-schema.js';
import {
  expectObject,
  optionalTruncate,
  readDocuments,
  readOptionalBoolean,
  readOptionalInteger,
  readOptionalString,
  readRawScoresActivation,
  readString,
} from '../wire-fields.js';
import { voyageRequestSchema, voyageResponseSchema } from './voyage-schemas.js';

/**
 * Voyage AI rerank: `POST {base}/rerank` `{query, documents, model, top_k, return_documents, truncation}` ->
 * `{object:"list", data:[{index, relevance_score, document?}], model, usage:{total_tokens}}`. Served under its own
 * base URL (`/voyage/v1`) because `top_k` and `data` collide with the OpenAI-style `/v1/rerank` shape.
 */
export const voyageDialect: Dialect = {
  name: 'voyage',
  requestSchema: voyageRequestSchema,
  responseSchema: voyageResponseSchema,
  errorSchema: messageAndOpenAiErrorSchema,
  paramNames: { query: 'query', documents: 'documents', topN: 'top_k', batchSize: 'batch_size' },

  parse(body: unknown): RerankRequest {
    const obj = expectObject(body, 'body');
    return {
      model: readOptionalString(obj, 'model', 'model'),
      query: readString(obj, 'query', 'query'),
      documents: readDocuments(obj['documents'], 'documents'),
      topN: readOptionalInteger(obj, 'top_k', 'top_k', 0),
      returnDocuments: readOptionalBoolean(obj, 'return_documents', 'return_documents') ?? false,
      threshold: undefined,
      batchSize: undefined,
      activation: readRawScoresActivation(obj, 'raw_scores', 'raw_scores'),
      prompt: undefined,
      // Voyage truncates by default.
      ...optionalTruncate(readOptionalBoolean(obj, 'truncation', 'truncation') ?? true),
    };
  },

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
