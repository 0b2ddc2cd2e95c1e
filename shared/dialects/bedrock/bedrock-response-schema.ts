import type { JsonSchema } from '../json-schema.js';

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
    results: {
      type: 'array',
      description: 'Best first; ties keep the input order. Every result carries its document as sent.',
      items: {
        type: 'object',
        required: ['index', 'relevanceScore', 'document'],
        properties: {
          index: { type: 'integer', minimum: 0, description: "The source's position in the request's list." },
          relevanceScore: { type: 'number', description: 'Sigmoid score in [0, 1].' },
          document: RERANK_DOCUMENT,
        },
      },
    },
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
