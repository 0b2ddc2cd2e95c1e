import { defineWireFields } from '../define-wire-fields.js';
import { at, withDefault, type WireType } from '../wire-field.js';
import { readStringDocuments } from '../wire-fields.js';
import { CORPUS_FILE_INPUT, PRIORITY_FIELD, TOKEN_CONTROL_FIELDS, cohereStyleCore, scoringExtensions } from '../wire-field-groups.js';
import { INSTRUCTION, TOP_N, booleanOrAbsent, integerOrAbsent } from '../wire-types.js';

/** Cohere v2 takes strings only (v1's object documents and rank_fields were dropped); so does Bedrock's InvokeModel for it. */
export const COHERE_V2_DOCUMENTS: WireType<{ text: string }[]> = {
  schema: {
    type: 'array',
    minItems: 1,
    items: { type: 'string', 'x-error-hint': 'Cohere v2 accepts strings only' },
    description: 'Strings only (v1 object documents and rank_fields were dropped in v2).',
  },
  required: true,
  read(value, param) {
    return readStringDocuments(value, param, ' (Cohere v2 accepts strings only)').map((text) => ({ text }));
  },
};

/** The body of `POST /v2/rerank`. */
export const cohereV2RequestFields = defineWireFields({
  title: 'CohereV2RerankRequest',
  inputs: CORPUS_FILE_INPUT,
  fields: {
    ...cohereStyleCore(COHERE_V2_DOCUMENTS, 'Required by Cohere; here its absence means the default model.'),
    // Cut when scoring, in the served model's own tokens (words for a model without a tokenizer): see RerankService.
    maxTokensPerDocument: at(
      'max_tokens_per_doc',
      integerOrAbsent(
        1,
        "Scores only each document's first this many tokens of the served model's tokenizer (cross-encoder, bi-encoder, LLM reranker); BM25 scores whole documents and reports it unused.",
      ),
    ),
    topN: at('top_n', TOP_N),
    returnDocuments: at(
      'return_documents',
      withDefault(booleanOrAbsent('Extension (v1 style): true = every result carries `document: {text}`.'), false),
    ),
    ...scoringExtensions(),
    prompt: at('instruction', INSTRUCTION),
    maxTokensPerQuery: TOKEN_CONTROL_FIELDS.maxTokensPerQuery,
    truncationSide: TOKEN_CONTROL_FIELDS.truncationSide,
    ...PRIORITY_FIELD,
  },
});
