import { messageAndOpenAiErrorSchema } from '../openai/openai-response-schema.js';
import type { JsonSchema } from '../json-schema.js';
import { bestFirstList, scoredResultSchema } from '../response-schema-parts.js';

export const voyageResponseSchema = {
  title: 'VoyageRerankResponse',
  type: 'object',
  required: ['object', 'data', 'model', 'usage'],
  properties: {
    object: { const: 'list' },
    data: bestFirstList(scoredResultSchema('relevance_score', { more: { document: { type: 'string' } } })),
    model: { type: 'string' },
    usage: { type: 'object', required: ['total_tokens'], properties: { total_tokens: { type: 'integer' } } },
  },
} as const satisfies JsonSchema;

/** Voyage's `{detail}` beside the OpenAI-style `message` and `error` (see formatVoyageError). */
export const voyageErrorSchema = {
  title: 'VoyageError',
  type: 'object',
  required: ['detail', 'message', 'error'],
  properties: { detail: { type: 'string' }, message: { type: 'string' }, error: messageAndOpenAiErrorSchema.properties.error },
} as const satisfies JsonSchema;
