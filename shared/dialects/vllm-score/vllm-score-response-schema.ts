import type { JsonSchema } from '../json-schema.js';

/** vLLM's ScoreResponse: one `score` object per document, in input order. */
export const vllmScoreResponseSchema = {
  title: 'VllmScoreResponse',
  type: 'object',
  required: ['id', 'object', 'created', 'model', 'data', 'usage'],
  properties: {
    id: { type: 'string' },
    object: { const: 'list' },
    created: { type: 'integer' },
    model: { type: 'string' },
    data: {
      type: 'array',
      description: 'In input order (not sorted).',
      items: {
        type: 'object',
        required: ['index', 'object', 'score'],
        properties: { index: { type: 'integer', minimum: 0 }, object: { const: 'score' }, score: { type: 'number' } },
      },
    },
    usage: {
      type: 'object',
      required: ['prompt_tokens', 'total_tokens'],
      properties: { prompt_tokens: { type: 'integer' }, total_tokens: { type: 'integer' }, completion_tokens: { type: 'integer' } },
    },
  },
} as const satisfies JsonSchema;
