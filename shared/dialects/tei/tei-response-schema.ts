import type { JsonSchema } from '../json-schema.js';
import { objectSchema } from '../object-schema.js';
import { bestFirstList, scoredResultSchema } from '../response-schema-parts.js';

/** TEI answers a bare array of ranks, best first (its `RerankResponse` = `Rank[]`). */
export const teiResponseSchema: JsonSchema = {
  title: 'TeiRerankResponse',
  ...bestFirstList(scoredResultSchema('score', { more: { text: { type: 'string' } } })),
};

/** TEI's `ErrorResponse`: `{error, error_type}`. */
export const teiErrorSchema: JsonSchema = objectSchema(
  {
    error: { type: 'string' },
    error_type: { type: 'string', enum: ['Unhealthy', 'Backend', 'Overloaded', 'Validation', 'Tokenizer', 'Empty'] },
  },
  { title: 'TeiErrorResponse' },
);
