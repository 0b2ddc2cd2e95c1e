import { messageAndOpenAiErrorSchema } from '../openai/openai-response-schema.js';
import type { JsonSchema } from '../json-schema.js';

export const voyageResponseSchema = {
  title: 'VoyageRerankResponse',
  type: 'object',
  required: ['object', 'data', 'model', 'usage'],
  properties: {
    object: { const: 'list' },
    data: {
      type: 'array',
      description: 'Best first; ties keep the input order.',
      items: {
        type: 'object',
        required: ['index', 'relevance_score'],
        properties: { index: { type: 'integer', minimum: 0 }, relevance_score: { type: 'number' }, document: { type: 'string' } },
      },
    },
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
