import type { JsonSchema } from '../json-schema.js';
import { scoredResultSchema } from '../response-schema-parts.js';

/** What `choices[0].message.content` carries, as a JSON string (the first of the four reply formats chat rerank clients parse). */
export const chatRerankResultsSchema = {
  title: 'ChatRerankResults',
  type: 'object',
  required: ['results'],
  properties: {
    results: {
      type: 'array',
      items: scoredResultSchema('score', {
        more: { document: { type: 'string', description: 'The document text; omitted when the request said include_docs (or return_documents) false.' } },
      }),
    },
  },
} as const satisfies JsonSchema;

export const chatResponseSchema = {
  title: 'ChatRerankResponse',
  type: 'object',
  required: ['id', 'object', 'created', 'model', 'choices', 'usage'],
  properties: {
    id: { type: 'string' },
    object: { const: 'chat.completion' },
    created: { type: 'integer' },
    model: { type: 'string' },
    choices: {
      type: 'array',
      items: {
        type: 'object',
        required: ['index', 'message', 'logprobs', 'finish_reason'],
        properties: {
          index: { type: 'integer' },
          message: {
            type: 'object',
            required: ['role', 'content', 'refusal'],
            properties: {
              role: { const: 'assistant' },
              content: { type: 'string', contentMediaType: 'application/json', contentSchema: chatRerankResultsSchema },
              refusal: { type: 'null' },
            },
          },
          logprobs: { type: 'null' },
          finish_reason: { type: 'string' },
        },
      },
    },
    usage: {
      type: 'object',
      properties: { prompt_tokens: { type: 'integer' }, completion_tokens: { type: 'integer' }, total_tokens: { type: 'integer' } },
    },
  },
} as const satisfies JsonSchema;
