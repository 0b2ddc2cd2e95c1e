import { defineWireFields } from '../define-wire-fields.js';
import { at, described, withDefault } from '../wire-field.js';
import { DOCUMENTS_FILE_ID, MODEL, QUERY, RAW_SCORES, TOP_N, booleanOrAbsent, stringDocuments } from '../wire-types.js';

/** The body of `POST /voyage/v1/rerank` (Voyage AI's rerank). */
export const voyageRequestFields = defineWireFields({
  title: 'VoyageRerankRequest',
  inputs: { documentsFileId: at('documents_file_id', DOCUMENTS_FILE_ID) },
  fields: {
    model: at('model', described(MODEL, "Required by Voyage; here Voyage's names alias the default model.")),
    query: at('query', QUERY),
    documents: at('documents', stringDocuments('Strings only, as Voyage takes them.')),
    topN: at('top_k', TOP_N),
    returnDocuments: at('return_documents', withDefault(booleanOrAbsent('true = every result carries its document text.'), false)),
    activation: at('raw_scores', RAW_SCORES),
    // Voyage truncates by default.
    truncate: at('truncation', withDefault(booleanOrAbsent('Default true (Voyage): cut texts longer than the limits; false = 413 instead.'), true)),
  },
});
