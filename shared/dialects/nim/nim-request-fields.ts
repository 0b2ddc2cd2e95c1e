import { invalidRequest } from '../../core/rerank-error.js';
import type { RerankDocument } from '../../core/rerank-request.js';
import { defineWireFields } from '../define-wire-fields.js';
import { at, described, type WireType } from '../wire-field.js';
import { describeJsonValue, expectObject, optionalStringValue, stringValue } from '../wire-fields.js';
import { BATCH_SIZE, MODEL, QUERY } from '../wire-types.js';

/** A NIM passage: `{text}`; NIM takes no bare strings. */
const PASSAGE = { type: 'object', required: ['text'], properties: { text: { type: 'string' } } } as const;

const PASSAGES: WireType<RerankDocument[]> = {
  schema: { type: 'array', minItems: 1, items: PASSAGE, description: 'The passages to rank, each `{text}`.' },
  required: true,
  read(value, param) {
    if (value === undefined || value === null) throw invalidRequest(`${param} is required`, param);
    if (!Array.isArray(value))
      throw invalidRequest(`${param} must be an array of {"text": "..."} objects, got ${describeJsonValue(value)}`, param);
    return value.map(
      (item: unknown, i): RerankDocument => ({ text: stringValue(expectObject(item, `${param}[${i}]`)['text'], `${param}[${i}].text`) }),
    );
  },
};

/**
 * NIM's `truncate`: `END` cuts an over-long passage at its end (this service keeps a text's start, the same thing);
 * `NONE` refuses it, as does absence (NIM's default). Anything else is a 400 naming the two values.
 */
const TRUNCATE: WireType<boolean | undefined> = {
  schema: {
    type: ['string', 'null'],
    enum: ['NONE', 'END', null],
    description: '`END` = cut an over-long passage at its end; `NONE` (default) = refuse it (413).',
  },
  required: false,
  read(value, param) {
    const mode = optionalStringValue(value, param);
    if (mode === undefined) return undefined;
    if (mode === 'END' || mode === 'NONE') return mode === 'END';
    throw invalidRequest(`${param} must be "NONE" or "END"`, param);
  },
};

/** The body of NVIDIA NIM's `POST /v1/ranking` (NeMo Retriever text reranking). */
export const nimRequestFields = defineWireFields({
  title: 'NimRankingRequest',
  description: "NVIDIA NIM's ranking body; the answer is `{rankings: [{index, logit}]}`, best first.",
  fields: {
    model: at('model', described(MODEL, 'Required by NIM; here its absence means the default model.')),
    query: at(['query', 'text'], described(QUERY, 'The search query (NIM wraps it: `query: {text}`).')),
    documents: at('passages', PASSAGES),
    truncate: at('truncate', TRUNCATE),
    batchSize: at('batch_size', BATCH_SIZE),
  },
});
