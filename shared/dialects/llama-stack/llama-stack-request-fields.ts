import { invalidRequest } from '../../core/rerank-error.js';
import type { RerankDocument } from '../../core/rerank-request.js';
import { CONTENT_ITEM } from '../request-schema-parts.js';
import { defineWireFields } from '../define-wire-fields.js';
import { at, described, type WireType } from '../wire-field.js';
import { describeJsonValue } from '../wire-fields.js';
import { CORPUS_FILE_INPUT, scoringExtensions } from '../wire-field-groups.js';
import { MODEL, integerOrAbsent } from '../wire-types.js';
import { readContentItemText } from './interleaved-content.js';

/** A string or a text item `{type: "text", text}`; image items are refused. */
const CONTENT_ITEM_TEXT: WireType<string> = {
  schema: { ...CONTENT_ITEM, description: 'A string or a text item `{type: "text", text}`; image items are refused.' },
  required: true,
  read: readContentItemText,
};

const ITEMS: WireType<RerankDocument[]> = {
  schema: { type: 'array', minItems: 1, items: CONTENT_ITEM, description: 'Strings or text items `{type: "text", text}`.' },
  required: true,
  read(value, param) {
    if (value === undefined || value === null) throw invalidRequest(`${param} is required`, param);
    if (!Array.isArray(value)) throw invalidRequest(`${param} must be an array, got ${describeJsonValue(value)}`, param);
    return value.map((item: unknown, i) => ({ text: readContentItemText(item, `${param}[${i}]`) }));
  },
};

/** The body of Llama Stack's `POST /v1alpha/inference/rerank`. */
export const llamaStackRequestFields = defineWireFields({
  title: 'LlamaStackRerankRequest',
  inputs: CORPUS_FILE_INPUT,
  fields: {
    model: at('model', described(MODEL, 'Required by Llama Stack; here its absence means the default model.')),
    query: at('query', CONTENT_ITEM_TEXT),
    documents: at('items', ITEMS),
    topN: at('max_num_results', integerOrAbsent(0, 'How many results to return, best first; absent = all.')),
    ...scoringExtensions(),
  },
});
