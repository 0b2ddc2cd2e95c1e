import type { RerankDocument } from '../../core/rerank-request.js';
import { defineWireFields } from '../define-wire-fields.js';
import { at, described, withDefault, type WireType } from '../wire-field.js';
import { readStringDocuments } from '../wire-fields.js';
import { MODEL, QUERY, RAW_SCORES, TOP_N, booleanOrAbsent } from '../wire-types.js';

/** Voyage takes strings only. */
const STRING_DOCUMENTS: WireType<RerankDocument[]> = {
  schema: { type: 'array', minItems: 1, items: { type: 'string' }, description: 'Strings only, as Voyage takes them.' },
  required: true,
  read: (value, param) => readStringDocuments(value, param).map((text): RerankDocument => ({ text })),
};

/** The body of `POST /voyage/v1/rerank` (Voyage AI's rerank). */
export const voyageRequestFields = defineWireFields({
  title: 'VoyageRerankRequest',
  fields: {
    model: at('model', described(MODEL, "Required by Voyage; here Voyage's names alias the default model.")),
    query: at('query', QUERY),
    documents: at('documents', STRING_DOCUMENTS),
    topN: at('top_k', TOP_N),
    returnDocuments: at('return_documents', withDefault(booleanOrAbsent('true = every result carries its document text.'), false)),
    activation: at('raw_scores', RAW_SCORES),
    // Voyage truncates by default.
    truncate: at('truncation', withDefault(booleanOrAbsent('Default true (Voyage): cut texts longer than the limits; false = 413 instead.'), true)),
  },
});
