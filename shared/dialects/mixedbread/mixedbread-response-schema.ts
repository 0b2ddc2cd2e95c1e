import type { JsonSchema } from '../json-schema.js';
import { objectSchema } from '../object-schema.js';
import { PROMPT_TOKEN_USAGE, bestFirstList, scoredResultSchema } from '../response-schema-parts.js';

/** Mixedbread's RerankResponse (as `@mixedbread/sdk` types it). */
export const mixedbreadResponseSchema: JsonSchema = objectSchema(
  {
    object: { const: 'list' },
    data: bestFirstList(
      scoredResultSchema('score', {
        more: {
          object: { const: 'rank_result' },
          input: { type: ['string', 'object'], description: 'The input as sent, when return_input.' },
        },
        moreRequired: ['object'],
      }),
    ),
    usage: PROMPT_TOKEN_USAGE,
    model: { type: 'string' },
    top_k: { type: 'integer', description: 'How many results were asked for (all: the number returned).' },
    return_input: { type: 'boolean' },
  },
  { title: 'MixedbreadRerankResponse' },
);
