import type { JsonSchema } from '../json-schema.js';
import { bestFirstList, scoredResultSchema } from '../response-schema-parts.js';

/** NIM's `RankingResponse`: `rankings` best first, each the passage's index and its raw score (`logit`). */
export const nimResponseSchema = {
  title: 'NimRankingResponse',
  type: 'object',
  required: ['rankings'],
  properties: {
    rankings: bestFirstList(scoredResultSchema('logit', { scoreDescription: "The model's raw score (a logit for a cross-encoder)." })),
  },
} as const satisfies JsonSchema;

/** FastAPI's error body, which NIM answers and its clients print: `{detail}`. */
export const fastApiErrorSchema = {
  title: 'FastApiError',
  type: 'object',
  required: ['detail'],
  properties: { detail: { type: 'string' } },
} as const satisfies JsonSchema;
