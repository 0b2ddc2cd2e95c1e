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
