import { defineWireFields } from '../define-wire-fields.js';
import { at, withDefault } from '../wire-field.js';
import { QUERY, RAW_SCORES, TRUNCATE, booleanOrAbsent, integerOrAbsent, stringDocuments, truncationSide } from '../wire-types.js';

/** TEI's `truncation_direction`: its OpenAPI document says `default: "right"` beside the enum `["Left", "Right"]`, so both spellings are read. */
const TRUNCATION_DIRECTION = truncationSide(
  '`Right` (default): a truncated text keeps its start; `Left`: its end (with `truncate`, and at the model window).',
);

/** The body of TEI's `POST /rerank` (Hugging Face text-embeddings-inference), told apart from the OpenAI-style body by `texts`. */
export const teiRequestFields = defineWireFields({
  title: 'TeiRerankRequest',
  description: "Hugging Face text-embeddings-inference's rerank body; the answer is TEI's bare array of ranks.",
  fields: {
    truncationSide: at('truncation_direction', TRUNCATION_DIRECTION),
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
