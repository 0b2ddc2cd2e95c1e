import type { JsonSchema } from '../json-schema.js';
import { objectSchema } from '../object-schema.js';
import { scoredResultSchema } from '../response-schema-parts.js';

/** What `choices[0].message.content` carries, as a JSON string (the first of the four reply formats chat rerank clients parse). */
const chatRerankResultsSchema: JsonSchema = objectSchema(
  {
    results: {
      type: 'array',
      items: scoredResultSchema('score', {
        more: {
          document: {
            type: 'string',
            description: 'The document text; omitted when the request said include_docs (or return_documents) false.',
          },
        },
      }),
    },
  },
  { title: 'ChatRerankResults' },
);

export const chatResponseSchema: JsonSchema = objectSchema(
  {
    id: { type: 'string' },
    object: { const: 'chat.completion' },
    created: { type: 'integer' },
    model: { type: 'string' },
    choices: {
      type: 'array',
      items: objectSchema({
        index: { type: 'integer' },
        message: objectSchema({
          role: { const: 'assistant' },
          content: { type: 'string', contentMediaType: 'application/json', contentSchema: chatRerankResultsSchema },
          refusal: { type: 'null' },
        }),
        logprobs: { type: 'null' },
        finish_reason: { type: 'string' },
      }),
    },
    usage: objectSchema(
      { prompt_tokens: { type: 'integer' }, completion_tokens: { type: 'integer' }, total_tokens: { type: 'integer' } },
      { optional: ['prompt_tokens', 'completion_tokens', 'total_tokens'] },
    ),
  },
  { title: 'ChatRerankResponse' },
);
