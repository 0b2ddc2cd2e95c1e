import { invalidRequest } from '../../core/rerank-error.js';
import type { RerankOutcome } from '../../core/rerank-outcome.js';
import type { RerankRequest } from '../../core/rerank-request.js';
import type { Dialect, DialectResponse } from '../dialect.js';
import { documentObject } from '../document-object.js';
import {
  expectObject,
  readDocuments,
  optionalTruncate,
  readOptionalBoolean,
  readRawScoresActivation,
  readOptionalInteger,
  readOptionalNumber,
  readOptionalString,
  readOptionalStringArray,
  readRankFieldDocuments,
  readString,
} from '../wire-fields.js';
import { formatMessageAndOpenAiError } from './openai-error-envelope.js';
import { openAiRequestSchema } from './openai-request-schema.js';
import { messageAndOpenAiErrorSchema, openAiResponseSchema } from './openai-response-schema.js';

/**
 * OpenAI-compatible rerank (Jina / Cohere v1 style): `POST /v1/rerank`
 * `{model, query, documents, top_n, return_documents}` -> `{id, model, results[{index, relevance_score, document?}], usage}`.
 * Extras other servers accept: `raw_scores` (TEI), `rerank_threshold` (seed 004), `batch_size` (queue fan-out),
 * Cohere v1's `rank_fields` (object documents scored as `field: value` lines) and `max_chunks_per_doc`
 * (long documents split into word windows, scored by their best chunk).
 */
export const openAiDialect: Dialect = {
  name: 'openai',
  requestSchema: openAiRequestSchema,
  responseSchema: openAiResponseSchema,
  errorSchema: messageAndOpenAiErrorSchema,
  paramNames: { query: 'query', documents: 'documents', topN: 'top_n', batchSize: 'batch_size' },

  parse(body: unknown): RerankRequest {
    const obj = expectObject(body, 'body');
    const rankFields = readOptionalStringArray(obj, 'rank_fields', 'rank_fields');
    if (rankFields?.length === 0) throw invalidRequest('rank_fields must name at least one field', 'rank_fields');
    const maxChunksPerDoc = readOptionalInteger(obj, 'max_chunks_per_doc', 'max_chunks_per_doc', 1);
    return {
      model: readOptionalString(obj, 'model', 'model'),
      query: readString(obj, 'query', 'query'),
      documents: rankFields ? readRankFieldDocuments(obj['documents'], 'documents', rankFields) : readDocuments(obj['documents'], 'documents'),
      topN: readOptionalInteger(obj, 'top_n', 'top_n', 0),
      returnDocuments: readOptionalBoolean(obj, 'return_documents', 'return_documents') ?? false,
      threshold: readOptionalNumber(obj, 'rerank_threshold', 'rerank_threshold'),
      batchSize: readOptionalInteger(obj, 'batch_size', 'batch_size', 1),
      activation: readRawScoresActivation(obj, 'raw_scores', 'raw_scores'),
      prompt: undefined,
      ...optionalTruncate(readOptionalBoolean(obj, 'truncate', 'truncate')),
      ...(maxChunksPerDoc === undefined ? {} : { maxChunksPerDoc }),
    };
  },

  formatOutcome(outcome: RerankOutcome): DialectResponse {
    return {
      status: 200,
      body: {
        id: outcome.id,
        object: 'rerank',
        model: outcome.model,
        results: outcome.results.map((r) => ({
          index: r.index,
          relevance_score: r.score,
          ...(r.document ? { document: documentObject(r.document) } : {}),
        })),
        // completion_tokens: Together AI's spec (and the AI SDK's Together provider) require it.
        usage: { prompt_tokens: outcome.usage.totalTokens, completion_tokens: 0, total_tokens: outcome.usage.totalTokens },
      },
    };
  },

  formatError: formatMessageAndOpenAiError,
};
