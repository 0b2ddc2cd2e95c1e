import type { JsonSchema } from '../json-schema.js';
import { objectSchema } from '../object-schema.js';
import { scoredResultSchema } from '../response-schema-parts.js';

/** A returned document: `{text}` for a string document, the client's own object for an object document. */
const RETURNED_DOCUMENT: JsonSchema = objectSchema(
  { text: { type: 'string' } },
  { description: '`{text}` for a string document; the object as sent for an object document.' },
);

/** `{index, relevance_score, document?}`, best first; shared by the OpenAI-compatible, DashScope and Cohere v2 replies. */
export const RANKED_RESULT: JsonSchema = scoredResultSchema('relevance_score', {
  indexDescription: "The document's position in the request's list.",
  scoreDescription: 'Sigmoid score in [0, 1] by default; the raw logit with raw_scores.',
  more: { document: RETURNED_DOCUMENT },
});

/** Cohere's `meta` (v1 and v2): the API version and the search units a request counts as. */
export const COHERE_META: JsonSchema = objectSchema(
  {
    api_version: objectSchema({ version: { type: 'string' } }),
    billed_units: objectSchema({
      search_units: {
        type: 'integer',
        minimum: 1,
        description: 'One per query and every started 100 documents (a chunk of a split document counts as one).',
      },
    }),
    warnings: {
      type: 'array',
      items: { type: 'string' },
      description:
        "Cohere's warnings: each document (and the query) cut to the token caps or the model's window, and each sent control the model has no use for.",
    },
  },
  { optional: ['warnings'] },
);

export const openAiResponseSchema: JsonSchema = objectSchema(
  {
    id: { type: 'string' },
    object: { const: 'rerank' },
    model: { type: 'string' },
    results: { type: 'array', items: RANKED_RESULT, description: 'Best first; ties keep the input order.' },
    usage: objectSchema({
      prompt_tokens: { type: 'integer' },
      completion_tokens: { type: 'integer', description: 'Always 0 (a rerank generates nothing); Together AI clients require the field.' },
      total_tokens: { type: 'integer' },
    }),
    meta: COHERE_META,
  },
  { title: 'OpenAiRerankResponse' },
);

/** The inner object of OpenAI's error envelope; the Cohere v2 and Llama Stack envelopes extend it. */
export const OPENAI_ERROR_OBJECT: JsonSchema = objectSchema({
  message: { type: 'string' },
  type: { type: 'string', examples: ['invalid_request_error', 'rate_limit_error', 'api_error', 'server_error'] },
  param: { type: ['string', 'null'], description: 'The request field at fault, as the client spelled it (`documents[2]`, `top_n`).' },
  code: { type: 'string', examples: ['invalid_value', 'invalid_api_key', 'not_found', 'payload_too_large', 'rate_limit_exceeded'] },
});

/** `{"error":{"message","type","param","code"}}`: OpenAI-compatible, chat, pipeline, jobs, models. */
export const openAiErrorSchema: JsonSchema = objectSchema({ error: OPENAI_ERROR_OBJECT }, { title: 'OpenAiError' });

/** `/v1/rerank`: Cohere v1's top-level `{"message"}` plus OpenAI's `error` object, carrying the same text. */
export const messageAndOpenAiErrorSchema: JsonSchema = objectSchema(
  { message: { type: 'string' }, error: OPENAI_ERROR_OBJECT },
  { title: 'MessageAndOpenAiError' },
);
