import type { JsonSchema } from '../json-schema.js';
import { PROMPT_TOKEN_USAGE } from '../response-schema-parts.js';

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
    usage: PROMPT_TOKEN_USAGE,
  },
} as const satisfies JsonSchema;
