import { OPENAI_ERROR_OBJECT } from '../openai/openai-response-schema.js';
import type { JsonSchema } from '../json-schema.js';
import { objectSchema } from '../object-schema.js';
import { bestFirstList, scoredResultSchema } from '../response-schema-parts.js';

export const voyageResponseSchema: JsonSchema = objectSchema(
  {
    object: { const: 'list' },
    data: bestFirstList(scoredResultSchema('relevance_score', { more: { document: { type: 'string' } } })),
    model: { type: 'string' },
    usage: objectSchema({ total_tokens: { type: 'integer' } }),
  },
  { title: 'VoyageRerankResponse' },
);

/** Voyage's `{detail}` beside the OpenAI-style `message` and `error` (see formatVoyageError). */
export const voyageErrorSchema: JsonSchema = objectSchema(
  { detail: { type: 'string' }, message: { type: 'string' }, error: OPENAI_ERROR_OBJECT },
  { title: 'VoyageError' },
);
