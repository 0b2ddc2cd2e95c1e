import { invalidRequest } from '../../core/rerank-error.js';
import type { RerankDocument } from '../../core/rerank-request.js';
import { defineWireFields } from '../define-wire-fields.js';
import { at, withDefault, type WireType } from '../wire-field.js';
import { describeJsonValue, expectObject, optionalStringArrayValue, readRankFieldDocuments, type JsonObject } from '../wire-fields.js';
import { cohereStyleCore } from '../wire-field-groups.js';
import { TOP_N, booleanOrAbsent } from '../wire-types.js';

/** Pinecone's `rank_fields`: the document fields to score; absent = `["text"]`. */
const RANK_FIELDS: WireType<readonly string[]> = {
  schema: {
    type: ['array', 'null'],
    minItems: 1,
    items: { type: 'string' },
    description: 'The document fields to score (default `["text"]`); several are scored as `field: value` lines.',
  },
  required: false,
  read(value, param) {
    const fields = optionalStringArrayValue(value, param);
    if (fields?.length === 0) throw invalidRequest(`${param} must name at least one field`, param);
    return fields ?? ['text'];
  },
};

/**
 * Strings, or objects carrying the rank field(s). One rank field is scored as its (string) value, as Pinecone scores
 * it; several as `field: value` lines. Every document comes back as sent (a string as `{text}`).
 */
const DOCUMENTS: WireType<RerankDocument[], { readonly rankFields: readonly string[] }> = {
  schema: {
    type: 'array',
    minItems: 1,
    items: { type: ['string', 'object'] },
    description: 'Strings, or objects that carry every `rank_fields` field.',
  },
  required: true,
  read(value, param, { rankFields }) {
    if (rankFields.length > 1) return readRankFieldDocuments(value, param, rankFields);
    const [field] = rankFields as [string];
    if (!Array.isArray(value)) throw invalidRequest(`${param} must be an array, got ${describeJsonValue(value)}`, param);
    return value.map((item: unknown, i): RerankDocument => {
      const source: JsonObject = typeof item === 'string' ? { text: item } : expectObject(item, `${param}[${i}]`);
      const text = source[field];
      if (typeof text !== 'string')
        throw invalidRequest(`${param}[${i}].${field} must be a string (the rank field)`, `${param}[${i}].${field}`);
      return { text, source };
    });
  },
};

/** Pinecone's `parameters.truncate`: `END` cuts an over-long text, `NONE` refuses it (413). */
const TRUNCATE: WireType<boolean | undefined> = {
  schema: {
    type: ['string', 'null'],
    enum: ['END', 'NONE', null],
    description: '`END`: cut a text longer than the limit; `NONE` (the default here): 413.',
  },
  required: false,
  read: (value) => (value === 'END' ? true : value === 'NONE' ? false : undefined),
};

/** The body of Pinecone's inference rerank (`POST /rerank` with `X-Pinecone-Api-Version`), as `@pinecone-database/pinecone` sends it. */
export const pineconeRequestFields = defineWireFields({
  title: 'PineconeRerankRequest',
  description: "Pinecone's inference rerank body; told apart on `/rerank` by Pinecone's headers, answered `{model, data, usage}`.",
  inputs: { rankFields: at('rank_fields', RANK_FIELDS) },
  fields: {
    ...cohereStyleCore(DOCUMENTS, "Required by Pinecone; Pinecone's model names alias the default model."),
    topN: at('top_n', TOP_N),
    returnDocuments: at(
      'return_documents',
      withDefault(booleanOrAbsent('Default true (Pinecone): every result carries its document as sent.'), true),
    ),
    truncate: at(['parameters', 'truncate'], TRUNCATE),
  },
});
