import type { JsonSchema } from '../json-schema.js';

/** Mixedbread's RerankResponse (as `@mixedbread/sdk` types it). */
export const mixedbreadResponseSchema = {
  title: 'MixedbreadRerankResponse',
  type: 'object',
  required: ['object', 'data', 'usage', 'model', 'top_k', 'return_input'],
  properties: {
    object: { const: 'list' },
    data: {
      type: 'array',
      description: 'Best first; ties keep the input order.',
      items: {
        type: 'object',
        required: ['index', 'score', 'object'],
        properties: {
          index: { type: 'integer', minimum: 0 },
          score: { type: 'number' },
          object: { const: 'rank_result' },
          input: { type: ['string', 'object'], description: 'The input as sent, when return_input.' },
        },
      },
    },
    usage: {
      type: 'object',
      required: ['prompt_tokens', 'total_tokens'],
      properties: { prompt_tokens: { type: 'integer' }, total_tokens: { type: 'integer' }, completion_tokens: { type: 'integer' } },
    },
    model: { type: 'string' },
    top_k: { type: 'integer', description: 'How many results were asked for (all: the number returned).' },
    return_input: { type: 'boolean' },
  },
} as const satisfies JsonSchema;
