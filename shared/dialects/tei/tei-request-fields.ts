import { invalidRequest } from '../../core/rerank-error.js';
import { defineWireFields } from '../define-wire-fields.js';
import { at, withDefault, type WireType } from '../wire-field.js';
import { optionalStringValue } from '../wire-fields.js';
import { QUERY, RAW_SCORES, TRUNCATE, booleanOrAbsent, integerOrAbsent, stringDocuments } from '../wire-types.js';

/**
 * TEI's `truncation_direction`. Its OpenAPI document says `default: "right"` beside the enum `["Left", "Right"]`,
 * so both spellings are read. Truncation here keeps the start of a text: `Left` (keep the end) is refused by name
 * rather than silently answered as `Right`.
 */
const TRUNCATION_DIRECTION: WireType<'Right' | undefined> = {
  schema: {
    type: ['string', 'null'],
    enum: ['Left', 'Right', 'left', 'right', null],
    description: 'Only `Right` (the default): a truncated text keeps its start.',
  },
  required: false,
  read: (value, param) => {
    const direction = optionalStringValue(value, param);
    if (direction === undefined || direction.toLowerCase() === 'right') return direction === undefined ? undefined : 'Right';
    if (direction.toLowerCase() === 'left') throw invalidRequest(`${param} Left is not supported: texts are truncated on the right`, param);
    throw invalidRequest(`${param} must be Left or Right`, param);
  },
};

/** The body of TEI's `POST /rerank` (Hugging Face text-embeddings-inference), told apart from the OpenAI-style body by `texts`. */
export const teiRequestFields = defineWireFields({
  title: 'TeiRerankRequest',
  description: "Hugging Face text-embeddings-inference's rerank body; the answer is TEI's bare array of ranks.",
  inputs: { truncationDirection: at('truncation_direction', TRUNCATION_DIRECTION) },
  fields: {
    query: at('query', QUERY),
    documents: at('texts', stringDocuments('The texts to rank, as TEI takes them (strings).')),
    activation: at('raw_scores', RAW_SCORES),
    returnDocuments: at('return_text', withDefault(booleanOrAbsent('true = every rank carries its text.'), false)),
    // TEI refuses over-long inputs unless asked to truncate (its default false), as this service does.
    truncate: at('truncate', TRUNCATE),
    // Not TEI's: Elasticsearch's `hugging_face` rerank service sends it (HuggingFaceRerankRequestEntity: texts, query,
    // return_text, top_n) and keeps the best top_n itself; answering only those is the same ranking, smaller.
    topN: at(
      'top_n',
      integerOrAbsent(0, "Extension (Elasticsearch's hugging_face service sends it): how many ranks to return, best first; absent = all."),
    ),
  },
});

/** TEI's body names its candidates `texts`; the OpenAI-compatible body on the same path names them `documents`. */
export const isTeiBody = (body: unknown): boolean =>
  typeof body === 'object' && body !== null && !Array.isArray(body) && 'texts' in body && !('documents' in body);
