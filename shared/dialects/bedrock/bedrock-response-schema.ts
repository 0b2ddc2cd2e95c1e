import type { JsonSchema } from '../json-schema.js';
import { objectSchema } from '../object-schema.js';
import { bestFirstList, scoredResultSchema } from '../response-schema-parts.js';

/** Bedrock's `RerankDocument` as a result carries it: the source's `inlineDocumentSource`, as sent. */
const RERANK_DOCUMENT: JsonSchema = objectSchema(
  {
    type: { enum: ['TEXT', 'JSON'] },
    textDocument: objectSchema({ text: { type: 'string' } }),
    jsonDocument: {},
  },
  { optional: ['textDocument', 'jsonDocument'] },
);

/** `{results: [{index, relevanceScore, document}], nextToken?}` (bedrock-agent-runtime's RerankResponse). */
export const bedrockResponseSchema: JsonSchema = objectSchema(
  {
    results: bestFirstList(
      scoredResultSchema('relevanceScore', {
        indexDescription: "The source's position in the request's list.",
        scoreDescription: 'Sigmoid score in [0, 1].',
        more: { document: RERANK_DOCUMENT },
        moreRequired: ['document'],
      }),
      'Every result carries its document as sent.',
    ),
    nextToken: { type: 'string', description: 'Never sent: every result comes in one page.' },
  },
  { title: 'BedrockRerankResponse', optional: ['nextToken'] },
);

/** AWS's JSON error body, `{message}`; the error's name is the `x-amzn-ErrorType` header. */
export const bedrockErrorSchema: JsonSchema = objectSchema(
  { message: { type: 'string' } },
  {
    title: 'BedrockError',
    description:
      'The exception name (`ValidationException`, `AccessDeniedException`, ...) is the `x-amzn-ErrorType` header, which AWS SDKs raise by.',
  },
);
