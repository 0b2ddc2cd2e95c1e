import type { JsonSchema } from '../json-schema.js';
import { objectSchema } from '../object-schema.js';
import { bestFirstList } from '../response-schema-parts.js';

/** Discovery Engine's RankResponse: the records best first, each with its score. */
export const vertexResponseSchema: JsonSchema = objectSchema(
  {
    records: bestFirstList(
      objectSchema(
        {
          id: { type: 'string' },
          title: { type: 'string', description: 'As sent, unless ignoreRecordDetailsInResponse.' },
          content: { type: 'string', description: 'As sent, unless ignoreRecordDetailsInResponse.' },
          score: { type: 'number', description: 'In [0, 1].' },
        },
        { optional: ['id', 'title', 'content'] },
      ),
    ),
  },
  { title: 'VertexRankResponse' },
);

/** Google's JSON error body. */
export const googleErrorSchema: JsonSchema = objectSchema(
  {
    error: objectSchema({
      code: { type: 'integer' },
      message: { type: 'string' },
      status: { type: 'string', examples: ['INVALID_ARGUMENT', 'UNAUTHENTICATED'] },
    }),
  },
  { title: 'GoogleError' },
);
