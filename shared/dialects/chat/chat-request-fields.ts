import type { JsonSchema } from '../json-schema.js';
import { DOCUMENT } from '../request-schema-parts.js';
import { defineWireFields } from '../define-wire-fields.js';
import { at, type WireType } from '../wire-field.js';
import { optionalBooleanValue, readDocuments, stringValue } from '../wire-fields.js';
import { BATCH_SIZE, MODEL, RAW_SCORES, THRESHOLD, TOP_N, TRUNCATE, booleanOrAbsent, stringOrAbsent } from '../wire-types.js';
import { readUserContent, type UserContent } from './chat-message.js';

/** The rerank request inside the user message's content (a JSON string in the chat message). */
export const chatContentFields = defineWireFields({
  title: 'ChatRerankContent',
  inputs: {
    includeDocs: at(
      'include_docs',
      booleanOrAbsent(
        'Default true: every result carries its document text; false omits it (`return_documents` is read when this is absent).',
      ),
    ),
    returnDocuments: at('return_documents', booleanOrAbsent('Same as include_docs.')),
  },
  fields: {
    query: at('query', { schema: { type: 'string', description: 'The search query (non-empty).' }, required: true, read: stringValue }),
    documents: at('candidates', {
      schema: { type: 'array', items: DOCUMENT, description: 'Strings, or objects with a string `text`; at least one.' },
      required: true,
      read: readDocuments,
    }),
    topN: at('top_k', TOP_N),
    prompt: at('prompt', stringOrAbsent('An instruction passed to scorers that take one.')),
    batchSize: at('batch_size', BATCH_SIZE),
    threshold: at('rerank_threshold', THRESHOLD),
    activation: at('raw_scores', RAW_SCORES),
    truncate: at('truncate', TRUNCATE),
  },
});

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
      anyOf: [{ type: 'string', contentMediaType: 'application/json', contentSchema: chatContentFields.schema }, TEXT_PARTS],
      description: 'The JSON text of a ChatRerankContent object, as a string or as text parts whose texts are joined.',
    },
  },
};

const MESSAGES: WireType<UserContent> = {
  schema: {
    type: 'array',
    minItems: 1,
    contains: USER_MESSAGE,
    description:
      'Chat messages; the first with role "user" carries the rerank request as the JSON string ChatRerankContent ' +
      '(`{query, candidates, top_k, ...}`). That JSON is validated when the content is read: a malformed one is a 400 naming `messages[i].content`.',
  },
  required: true,
  read: readUserContent,
};

/** OpenAI's `stream`: true = the reply as server-sent chunks (formatted whole, then sent at once). */
const STREAM: WireType<boolean | undefined> = {
  schema: {
    type: ['boolean', 'null'],
    description: 'true = the reply as server-sent `chat.completion.chunk` events ending with `data: [DONE]`, sent at once when complete.',
  },
  required: false,
  read: optionalBooleanValue,
};

/** OpenAI's `stream_options.include_usage`: the usage comes in one extra last chunk whose `choices` is empty. */
const INCLUDE_USAGE: WireType<boolean | undefined> = {
  schema: {
    type: ['boolean', 'null'],
    description: 'With `stream`: send the usage in an extra last chunk (`choices: []`); every other chunk has `usage: null`.',
  },
  required: false,
  read: optionalBooleanValue,
};

/** The body of `POST /v1/chat/completions` (chat-based rerank); the rerank request itself is chatContentFields. */
export const chatRequestFields = defineWireFields({
  title: 'ChatRerankRequest',
  inputs: {
    stream: at('stream', STREAM),
    includeUsage: at(['stream_options', 'include_usage'], INCLUDE_USAGE),
    messages: at('messages', MESSAGES),
  },
  fields: { model: at('model', MODEL) },
});
