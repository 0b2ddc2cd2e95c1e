import type { RerankDocument } from '../../core/rerank-request.js';
import { defineWireFields } from '../define-wire-fields.js';
import { at, described, withDefault, type WireType } from '../wire-field.js';
import { readStringDocuments } from '../wire-fields.js';
import { BATCH_SIZE, MODEL, QUERY, RAW_SCORES, THRESHOLD, TOP_N, booleanOrAbsent, integerOrAbsent } from '../wire-types.js';

/**
 * `max_tokens_per_doc`, approximated with whitespace tokens: a document longer than that many words is cut to
 * its first words. Above the model's own limit the model's tokenizer truncates anyway, so large values
 * (Cohere's default is 4096) change nothing. The untruncated text is kept as the returned document.
 */
export function truncateWords(text: string, maxTokens: number | undefined): string {
  if (maxTokens === undefined) return text;
  const words = text.split(/\s+/).filter(Boolean);
  return words.length <= maxTokens ? text : words.slice(0, maxTokens).join(' ');
}

/** Cohere v2 takes strings only (v1's object documents and rank_fields were dropped), cut to `max_tokens_per_doc` words. */
const STRING_DOCUMENTS: WireType<RerankDocument[], { readonly maxTokensPerDoc: number | undefined }> = {
  schema: {
    type: 'array',
    minItems: 1,
    items: { type: 'string', 'x-error-hint': 'Cohere v2 accepts strings only' },
    description: 'Strings only (v1 object documents and rank_fields were dropped in v2).',
  },
  required: true,
  read(value, param, { maxTokensPerDoc }) {
    return readStringDocuments(value, param, ' (Cohere v2 accepts strings only)').map((item): RerankDocument => {
      const text = truncateWords(item, maxTokensPerDoc);
      return text === item ? { text } : { text, source: { text: item } };
    });
  },
};

/** The body of `POST /v2/rerank`. */
export const cohereV2RequestFields = defineWireFields({
  title: 'CohereV2RerankRequest',
  inputs: {
    maxTokensPerDoc: at('max_tokens_per_doc', integerOrAbsent(1, 'Scores only the first this many (whitespace) words of each document.')),
  },
  fields: {
    model: at('model', described(MODEL, 'Required by Cohere; here its absence means the default model.')),
    query: at('query', QUERY),
    documents: at('documents', STRING_DOCUMENTS),
    topN: at('top_n', TOP_N),
    returnDocuments: at('return_documents', withDefault(booleanOrAbsent('Extension (v1 style): true = every result carries `document: {text}`.'), false)),
    threshold: at('rerank_threshold', THRESHOLD),
    batchSize: at('batch_size', BATCH_SIZE),
    activation: at('raw_scores', RAW_SCORES),
  },
});
