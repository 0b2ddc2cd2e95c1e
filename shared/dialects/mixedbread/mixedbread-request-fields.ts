import { echoText } from '../../core/echo-text.js';
import { invalidRequest } from '../../core/rerank-error.js';
import type { RerankDocument } from '../../core/rerank-request.js';
import { defineWireFields } from '../define-wire-fields.js';
import { at, described, withDefault, type WireType } from '../wire-field.js';
import { describeJsonValue, optionalIntegerValue, optionalStringArrayValue, type JsonObject } from '../wire-fields.js';
import { BATCH_SIZE, MODEL, QUERY, THRESHOLD, booleanOrAbsent } from '../wire-types.js';

/** `rank_fields`: the object fields scored, as `field: value` lines. */
const RANK_FIELDS: WireType<string[] | undefined> = {
  schema: {
    type: ['array', 'null'],
    minItems: 1,
    items: { type: 'string' },
    description: 'The fields of object inputs to score (as `field: value` lines); absent = every field.',
  },
  required: false,
  read(value, param) {
    const fields = optionalStringArrayValue(value, param);
    if (fields?.length === 0) throw invalidRequest(`${param} must name at least one field`, param);
    return fields;
  },
};

/**
 * Mixedbread's `input`: strings, or objects scored as the `rank_fields` they name (every field when none is named, so
 * nothing sent is silently left out). Nested lists (its multimodal inputs) cannot be scored by a text reranker.
 */
const INPUT: WireType<RerankDocument[], { readonly rankFields: string[] | undefined }> = {
  schema: {
    type: 'array',
    minItems: 1,
    items: { type: ['string', 'object'] },
    description: 'Strings, or objects (scored as their `rank_fields`, or all their fields); returned as sent.',
  },
  required: true,
  read(value, param, { rankFields }) {
    if (value === undefined || value === null) throw invalidRequest(`${param} is required`, param);
    if (!Array.isArray(value)) throw invalidRequest(`${param} must be an array, got ${describeJsonValue(value)}`, param);
    return value.map((item: unknown, i): RerankDocument => {
      if (typeof item === 'string') return { text: item, source: { input: item } };
      if (typeof item !== 'object' || item === null || Array.isArray(item)) {
        throw invalidRequest(`${param}[${i}] must be a string or an object, got ${describeJsonValue(item)}`, `${param}[${i}]`);
      }
      const object = item as JsonObject;
      const fields = rankFields ?? Object.keys(object);
      if (fields.length === 0) throw invalidRequest(`${param}[${i}] is an empty object: nothing to score`, `${param}[${i}]`);
      const lines = fields.map((field) => {
        const fieldValue = object[field];
        if (fieldValue === undefined || fieldValue === null)
          throw invalidRequest(`${param}[${i}] has no field "${echoText(field)}" named in rank_fields`, `${param}[${i}].${field}`);
        return `${field}: ${typeof fieldValue === 'string' ? fieldValue : JSON.stringify(fieldValue)}`;
      });
      // The sent value is kept whole under `input`, so a returned input is exactly what was sent (string or object).
      return { text: lines.join('\n'), source: { input: object } };
    });
  },
};

/** `top_k`: how many results; -1 (Mixedbread's "all") or absent = every input. */
const TOP_K: WireType<number | undefined> = {
  schema: { type: ['integer', 'null'], minimum: -1, description: 'How many results to return, best first; -1 or absent = all.' },
  required: false,
  read(value, param) {
    const topK = optionalIntegerValue(value, param, -1);
    return topK === -1 ? undefined : topK;
  },
};

/** The body of Mixedbread's `POST /v1/reranking` (the `@mixedbread/sdk` client's `rerank()`). */
export const mixedbreadRequestFields = defineWireFields({
  title: 'MixedbreadRerankRequest',
  description:
    'Mixedbread\'s rerank body; the answer is `{object: "list", data: [{index, score, input?}], usage, model, top_k, return_input}`.',
  inputs: {
    rankFields: at('rank_fields', RANK_FIELDS),
    // Accepted so clients that send it are answered; the query is scored as sent.
    rewriteQuery: at('rewrite_query', booleanOrAbsent('Accepted; the query is not rewritten here.')),
  },
  fields: {
    model: at(
      'model',
      described(MODEL, 'A served model id, or a Mixedbread model name (an alias of the default model); absent = the default model.'),
    ),
    query: at('query', QUERY),
    documents: at('input', INPUT),
    topN: at('top_k', TOP_K),
    returnDocuments: at('return_input', withDefault(booleanOrAbsent('true = every result carries its `input` as sent.'), false)),
    threshold: at('rerank_threshold', THRESHOLD),
    batchSize: at('batch_size', BATCH_SIZE),
  },
});
