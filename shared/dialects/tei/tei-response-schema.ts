import type { JsonSchema } from '../json-schema.js';
import { bestFirstList, scoredResultSchema } from '../response-schema-parts.js';

/** TEI answers a bare array of ranks, best first (its `RerankResponse` = `Rank[]`). */
export const teiResponseSchema = {
  title: 'TeiRerankResponse',
  ...bestFirstList(scoredResultSchema('score', { more: { text: { type: 'string' } } })),
} as const satisfies JsonSchema;

/** TEI's `ErrorResponse`: `{error, error_type}`. */
export const teiErrorSchema = {
  title: 'TeiErrorResponse',
  type: 'object',
  required: ['error', 'error_type'],
  properties: {
    error: { type: 'string' },
    error_type: { type: 'string', enum: ['Unhealthy', 'Backend', 'Overloaded', 'Validation', 'Tokenizer', 'Empty'] },
  },
} as const satisfies JsonSchema;
