import type { JsonSchema } from '../../openapi/json-schema.js';
import {
  BATCH_SIZE_FIELD,
  DOCUMENT,
  MODEL_FIELD,
  RAW_SCORES_FIELD,
  THRESHOLD_FIELD,
  TRUNCATE_FIELD,
  optionalBoolean,
  optionalInteger,
  optionalString,
} from '../../openapi/request-schema-parts.js';

/** The rerank request inside the user message's content (seed 001's "Rerank Data JSON String"). */
export const chatRerankContentSchema = {
  title: 'ChatRerankContent',
  type: 'object',
  required: ['query', 'candidates'],
  properties: {
    query: { type: 'string', description: 'The search query (non-empty).' },
    candidates: { type: 'array', items: DOCUMENT, description: 'Strings, or objects with a string `text`; at least one.' },
    top_k: optionalInteger(0, 'How many results to return, best first; absent or larger than the list = all, 0 = none.'),
    prompt: optionalString('An instruction passed to scorers that take one.'),
    batch_size: BATCH_SIZE_FIELD,
    include_docs: optionalBoolean('Default true: every result carries its document text; false omits it (`return_documents` is read when this is absent).'),
    return_documents: optionalBoolean('Same as include_docs.'),
    rerank_threshold: THRESHOLD_FIELD,
    raw_scores: RAW_SCORES_FIELD,
    truncate: TRUNCATE_FIELD,
  },
} as const satisfies JsonSchema;

/** OpenAI's content parts: the texts are joined and read as the content string. */
const TEXT_PARTS: JsonSchema = {
  type: 'array',
  minItems: 1,
  items: { type: 'object', required: ['type', 'text'], properties: { type: { const: 'text' }, text: { type: 'string' } } },
};

/**
 * A user message whose content is a string (or text parts). At least one must be in `messages`; the FIRST one
 * is read. The JSON inside the content is annotated here and checked by chatDialect.parse, not by this schema.
 */
const USER_MESSAGE: JsonSchema = {
  type: 'object',
  required: ['role', 'content'],
  properties: {
    role: { const: 'user' },
    content: {
      anyOf: [{ type: 'string', contentMediaType: 'application/json', contentSchema: chatRerankContentSchema }, TEXT_PARTS],
      description: 'The JSON text of a ChatRerankContent object, as a string or as text parts whose texts are joined.',
    },
  },
};

/** The body of `POST /v1/chat/completions` (seed 001), as chatDialect.parse reads it. */
export const chatRequestSchema = {
  title: 'ChatRerankRequest',
  type: 'object',
  required: ['messages'],
  properties: {
    model: MODEL_FIELD,
    stream: {
      type: ['boolean', 'null'],
      description: 'true = the reply as server-sent `chat.completion.chunk` events ending with `data: [DONE]`, sent at once when complete.',
    },
    messages: {
      type: 'array',
      minItems: 1,
      contains: USER_MESSAGE,
      description:
        'Chat messages; the first with role "user" carries the rerank request as the JSON string ChatRerankContent ' +
        '(`{query, candidates, top_k, ...}`). That JSON is validated when the content is read: a malformed one is a 400 naming `messages[i].content`.',
    },
  },
} as const satisfies JsonSchema;
