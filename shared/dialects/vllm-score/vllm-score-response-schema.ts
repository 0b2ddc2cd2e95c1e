import type { JsonSchema } from '../json-schema.js';
import { objectSchema } from '../object-schema.js';
import { PROMPT_TOKEN_USAGE } from '../response-schema-parts.js';

/** vLLM's ScoreResponse: one `score` object per document, in input order. */
export const vllmScoreResponseSchema: JsonSchema = objectSchema(
  {
    id: { type: 'string' },
    object: { const: 'list' },
    created: { type: 'integer' },
    model: { type: 'string' },
    data: {
      type: 'array',
      description: 'In input order (not sorted).',
      items: objectSchema({ index: { type: 'integer', minimum: 0 }, object: { const: 'score' }, score: { type: 'number' } }),
    },
    usage: PROMPT_TOKEN_USAGE,
  },
  { title: 'VllmScoreResponse' },
);
