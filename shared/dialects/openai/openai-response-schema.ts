import type { JsonSchema } from '../json-schema.js';
import { scoredResultSchema } from '../response-schema-parts.js';

/** A returned document: `{text}` for a string document, the client's own object for an object document. */
export const RETURNED_DOCUMENT: JsonSchema = {
  type: 'object',
  required: ['text'],
  properties: { text: { type: 'string' } },
  description: '`{text}` for a string document; the object as sent for an object document.',
};

/** `{index, relevance_score, document?}`, best first; shared by the OpenAI-compatible, DashScope and Cohere v2 replies. */
export const RANKED_RESULT: JsonSchema = scoredResultSchema('relevance_score', {
  indexDescription: "The document's position in the request's list.",
  scoreDescription: 'Sigmoid score in [0, 1] by default; the raw logit with raw_scores.',
  more: { document: RETURNED_DOCUMENT },
});

/** Cohere's `meta` (v1 and v2): the API version and the search units a request counts as. */
export const COHERE_META: JsonSchema = {
  type: 'object',
  required: ['api_version', 'billed_units'],
  properties: {
    api_version: { type: 'object', required: ['version'], properties: { version: { type: 'string' } } },
    billed_units: {
      type: 'object',
      required: ['search_units'],
      properties: { search_units: { type: 'integer', minimum: 1, description: 'One per query and every started 100 documents (a chunk of a split document counts as one).' } },
    },
  },
};

export const openAiResponseSchema = {
  title: 'OpenAiRerankResponse',
  type: 'object',
  required: ['id', 'object', 'model', 'results', 'usage', 'meta'],
  properties: {
    id: { type: 'string' },
    object: { const: 'rerank' },
    model: { type: 'string' },
    results: { type: 'array', items: RANKED_RESULT, description: 'Best first; ties keep the input order.' },
    usage: {
      type: 'object',
      required: ['prompt_tokens', 'completion_tokens', 'total_tokens'],
      properties: {
        prompt_tokens: { type: 'integer' },
        completion_tokens: { type: 'integer', description: 'Always 0 (a rerank generates nothing); Together AI clients require the field.' },
        total_tokens: { type: 'integer' },
      },
    },
    meta: COHERE_META,
  },
} as const satisfies JsonSchema;

/** The inner object of OpenAI's error envelope; the Cohere v2 and Llama Stack envelopes extend it. */
export const OPENAI_ERROR_OBJECT: JsonSchema = {
  type: 'object',
  required: ['message', 'type', 'param', 'code'],
  properties: {
    message: { type: 'string' },
    type: { type: 'string', examples: ['invalid_request_error', 'rate_limit_error', 'api_error', 'server_error'] },
    param: { type: ['string', 'null'], description: 'The request field at fault, as the client spelled it (`documents[2]`, `top_n`).' },
    code: { type: 'string', examples: ['invalid_value', 'invalid_api_key', 'not_found', 'payload_too_large', 'rate_limit_exceeded'] },
  },
};

/** `{"error":{"message","type","param","code"}}`: OpenAI-compatible, chat, pipeline, jobs, models. */
export const openAiErrorSchema = {
  title: 'OpenAiError',
  type: 'object',
  required: ['error'],
  properties: { error: OPENAI_ERROR_OBJECT },
} as const satisfies JsonSchema;

/** `/v1/rerank`: Cohere v1's top-level `{"message"}` plus OpenAI's `error` object, carrying the same text. */
export const messageAndOpenAiErrorSchema = {
  title: 'MessageAndOpenAiError',
  type: 'object',
  required: ['message', 'error'],
  properties: { message: { type: 'string' }, error: OPENAI_ERROR_OBJECT },
} as const satisfies JsonSchema;
