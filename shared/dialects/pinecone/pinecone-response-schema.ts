import type { JsonSchema } from '../json-schema.js';
import { bestFirstList, scoredResultSchema } from '../response-schema-parts.js';

/** `{model, data: [{index, score, document?}], usage: {rerank_units}}` (Pinecone's RerankResult). */
export const pineconeResponseSchema = {
  title: 'PineconeRerankResponse',
  type: 'object',
  required: ['model', 'data', 'usage'],
  properties: {
    model: { type: 'string' },
    data: bestFirstList(
      scoredResultSchema('score', {
        scoreDescription: 'Sigmoid score in [0, 1].',
        more: { document: { type: 'object', description: 'The document as sent (a string as `{text}`), unless `return_documents` is false.' } },
      }),
    ),
    usage: { type: 'object', required: ['rerank_units'], properties: { rerank_units: { type: 'integer' } } },
  },
} as const satisfies JsonSchema;

/** Pinecone's ErrorResponse: `{status, error: {code, message}}`. */
export const pineconeErrorSchema = {
  title: 'PineconeError',
  type: 'object',
  required: ['status', 'error'],
  properties: {
    status: { type: 'integer' },
    error: {
      type: 'object',
      required: ['code', 'message'],
      properties: { code: { type: 'string', examples: ['INVALID_ARGUMENT', 'UNAUTHENTICATED', 'RESOURCE_EXHAUSTED'] }, message: { type: 'string' } },
    },
  },
} as const satisfies JsonSchema;
