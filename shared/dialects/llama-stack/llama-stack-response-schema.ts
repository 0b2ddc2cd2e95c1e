import type { JsonSchema } from '../json-schema.js';
import { scoredResultSchema } from '../response-schema-parts.js';
import { OPENAI_ERROR_OBJECT } from '../openai/openai-response-schema.js';

export const llamaStackResponseSchema = {
  title: 'LlamaStackRerankResponse',
  type: 'object',
  required: ['data'],
  properties: {
    data: { type: 'array', items: scoredResultSchema('relevance_score') },
  },
} as const satisfies JsonSchema;

/** Llama Stack's `{"error":{"detail"}}` with OpenAI's fields beside `detail` (same text as `message`). */
export const llamaStackErrorSchema = {
  title: 'LlamaStackError',
  type: 'object',
  required: ['error'],
  properties: {
    error: {
      allOf: [OPENAI_ERROR_OBJECT, { type: 'object', required: ['detail'], properties: { detail: { type: 'string' } } }],
    },
  },
} as const satisfies JsonSchema;
