import type { JsonSchema } from '../json-schema.js';
import { objectSchema } from '../object-schema.js';
import { bestFirstList, scoredResultSchema } from '../response-schema-parts.js';

/** `{model, data: [{index, score, document?}], usage: {rerank_units}}` (Pinecone's RerankResult). */
export const pineconeResponseSchema: JsonSchema = objectSchema(
  {
    model: { type: 'string' },
    data: bestFirstList(
      scoredResultSchema('score', {
        scoreDescription: 'Sigmoid score in [0, 1].',
        more: {
          document: { type: 'object', description: 'The document as sent (a string as `{text}`), unless `return_documents` is false.' },
        },
      }),
    ),
    usage: objectSchema({ rerank_units: { type: 'integer' } }),
  },
  { title: 'PineconeRerankResponse' },
);

/** Pinecone's ErrorResponse: `{status, error: {code, message}}`. */
export const pineconeErrorSchema: JsonSchema = objectSchema(
  {
    status: { type: 'integer' },
    error: objectSchema({
      code: { type: 'string', examples: ['INVALID_ARGUMENT', 'UNAUTHENTICATED', 'RESOURCE_EXHAUSTED'] },
      message: { type: 'string' },
    }),
  },
  { title: 'PineconeError' },
);
