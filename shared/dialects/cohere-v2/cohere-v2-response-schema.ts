import type { JsonSchema } from '../json-schema.js';
import { COHERE_META, RANKED_RESULT, messageAndOpenAiErrorSchema } from '../openai/openai-response-schema.js';

export const cohereV2ResponseSchema = {
  title: 'CohereV2RerankResponse',
  type: 'object',
  required: ['id', 'results', 'meta'],
  properties: {
    id: { type: 'string' },
    results: { type: 'array', items: RANKED_RESULT },
    meta: COHERE_META,
  },
} as const satisfies JsonSchema;

/** Cohere's `{"message"}` plus OpenAI's `error` object, carrying the same text (the `/v1/rerank` envelope). */
export const cohereV2ErrorSchema = { ...messageAndOpenAiErrorSchema, title: 'CohereV2Error' } as const satisfies JsonSchema;
