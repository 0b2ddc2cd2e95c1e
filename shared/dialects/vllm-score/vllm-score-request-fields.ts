import { invalidRequest } from '../../core/rerank-error.js';
import type { JsonSchema } from '../json-schema.js';
import { defineWireFields } from '../define-wire-fields.js';
import { at, described } from '../wire-field.js';
import { describeJsonValue } from '../wire-fields.js';
import { BATCH_SIZE, MODEL, asSent } from '../wire-types.js';

/** A text or a non-empty list of texts, as vLLM's ScoreRequest takes each side. */
const TEXTS: JsonSchema = { anyOf: [{ type: 'string' }, { type: 'array', minItems: 1, items: { type: 'string' } }] };

const QUERY_SIDE = 'The query: a string, or a list of one string (a longer list pairs each item with its document; this service ranks one query).';
const DOCUMENT_SIDE = 'The documents: a list of strings (or one string).';

/**
 * The body of vLLM's `POST /score` (and `/v1/score`). Each side has two spellings (`text_1`/`text_2`, and the newer
 * `queries`/`documents`), so both are handed over as sent and read by the dialect (see readScoreSides).
 */
export const vllmScoreRequestFields = defineWireFields({
  title: 'VllmScoreRequest',
  description: "vLLM's score body; the answer is `{object: \"list\", data: [{index, object: \"score\", score}]}` in input order.",
  inputs: {
    text1: at('text_1', asSent({ ...TEXTS, description: QUERY_SIDE })),
    text2: at('text_2', asSent({ ...TEXTS, description: DOCUMENT_SIDE })),
    queries: at('queries', asSent({ ...TEXTS, description: `${QUERY_SIDE} The newer name of text_1.` })),
    documents: at('documents', asSent({ ...TEXTS, description: `${DOCUMENT_SIDE} The newer name of text_2.` })),
  },
  fields: {
    model: at('model', described(MODEL, 'The served model; absent = the default model (as vLLM serves one).')),
    batchSize: at('batch_size', BATCH_SIZE),
  },
  rules: {
    if: { type: 'object', required: ['queries'], properties: { queries: {} } },
    then: { required: ['queries', 'documents'], properties: { queries: {}, documents: {} } },
    else: { required: ['text_1', 'text_2'], properties: { text_1: {}, text_2: {} } },
  },
});

/** A side as a list of strings; a string is a list of one. */
function textsOf(value: unknown, param: string): string[] {
  if (value === undefined || value === null) throw invalidRequest(`${param} is required`, param);
  const list: unknown[] = Array.isArray(value) ? value : [value];
  if (list.length === 0) throw invalidRequest(`${param} must not be an empty list`, param);
  return list.map((item, i) => {
    if (typeof item !== 'string') throw invalidRequest(`${param}${Array.isArray(value) ? `[${i}]` : ''} must be a string, got ${describeJsonValue(item)}`, param);
    return item;
  });
}

/**
 * The query and the documents, from whichever spelling was sent (`text_1` wins over `queries`, as vLLM maps the old
 * names onto the new). vLLM pairs a list of N queries with N documents one to one; that is not a ranking of one
 * query's candidates, so only one query (a string or a list of one) is taken.
 */
export function readScoreSides(inputs: { text1: unknown; text2: unknown; queries: unknown; documents: unknown }): { query: string; documents: string[] } {
  const [queryParam, queryValue] = inputs.text1 !== undefined && inputs.text1 !== null ? ['text_1', inputs.text1] : ['queries', inputs.queries];
  const [documentsParam, documentsValue] = inputs.text2 !== undefined && inputs.text2 !== null ? ['text_2', inputs.text2] : ['documents', inputs.documents];
  const queries = textsOf(queryValue, queryParam);
  if (queries.length > 1) {
    throw invalidRequest(`${queryParam} must be one text: this service ranks one query's documents (send each query in its own request)`, queryParam);
  }
  return { query: queries[0] as string, documents: textsOf(documentsValue, documentsParam) };
}
