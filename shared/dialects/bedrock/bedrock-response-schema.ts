import type { JsonSchema } from '../json-schema.js';
import { bestFirstList, scoredResultSchema } from '../response-schema-parts.js';

/** Bedrock's `RerankDocument` as a result carries it: the source's `inlineDocumentSource`, as sent. */
const RERANK_DOCUMENT: JsonSchema = {
  type: 'object',
  required: ['type'],
  properties: {
    type: { enum: ['TEXT', 'JSON'] },
    textDocument: { type: 'object', required: ['text'], properties: { text: { type: 'string' } } },
    jsonDocument: {},
  },
};

/** `{results: [{index, relevanceScore, document}], nextToken?}` (bedrock-agent-runtime's RerankResponse). */
export const bedrockResponseSchema = {
  title: 'BedrockRerankResponse',
  type: 'object',
  required: ['results'],
  properties: {
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
} as const satisfies JsonSchema;

/** AWS's JSON error body, `{message}`; the error's name is the `x-amzn-ErrorType` header. */
export const bedrockErrorSchema = {
  title: 'BedrockError',
  type: 'object',
  required: ['message'],
  properties: { message: { type: 'string' } },
  description: 'The exception name (`ValidationException`, `AccessDeniedException`, ...) is the `x-amzn-ErrorType` header, which AWS SDKs raise by.',
} as const satisfies JsonSchema;
