import type { JsonSchema } from '../json-schema.js';
import { bestFirstList } from '../response-schema-parts.js';

/** Discovery Engine's RankResponse: the records best first, each with its score. */
export const vertexResponseSchema = {
  title: 'VertexRankResponse',
  type: 'object',
  required: ['records'],
  properties: {
    records: bestFirstList({
      type: 'object',
      required: ['score'],
      properties: {
        id: { type: 'string' },
        title: { type: 'string', description: 'As sent, unless ignoreRecordDetailsInResponse.' },
        content: { type: 'string', description: 'As sent, unless ignoreRecordDetailsInResponse.' },
        score: { type: 'number', description: 'In [0, 1].' },
      },
    }),
  },
} as const satisfies JsonSchema;

/** Google's JSON error body. */
export const googleErrorSchema = {
  title: 'GoogleError',
  type: 'object',
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      required: ['code', 'message', 'status'],
      properties: { code: { type: 'integer' }, message: { type: 'string' }, status: { type: 'string', examples: ['INVALID_ARGUMENT', 'UNAUTHENTICATED'] } },
    },
  },
} as const satisfies JsonSchema;
