import { defineWireFields } from '../define-wire-fields.js';
import { at, withDefault } from '../wire-field.js';
import { CORPUS_FILE_INPUT, cohereStyleCore } from '../wire-field-groups.js';
import { RAW_SCORES, TOP_N, booleanOrAbsent, stringDocuments } from '../wire-types.js';

/** The body of `POST /voyage/v1/rerank` (Voyage AI's rerank). */
export const voyageRequestFields = defineWireFields({
  title: 'VoyageRerankRequest',
  fields: {
    ...cohereStyleCore(
      stringDocuments('Strings only, as Voyage takes them.'),
      "Required by Voyage; here Voyage's names alias the default model.",
    ),
    topN: at('top_k', TOP_N),
    returnDocuments: at('return_documents', withDefault(booleanOrAbsent('true = every result carries its document text.'), false)),
    activation: at('raw_scores', RAW_SCORES),
    // Voyage truncates by default.
    truncate: at(
      'truncation',
      withDefault(booleanOrAbsent('Default true (Voyage): cut texts longer than the limits; false = 413 instead.'), true),
    ),
  },
  inputs: CORPUS_FILE_INPUT,
});
