import { invalidRequest } from '../../core/rerank-error.js';
import type { JsonSchema } from '../json-schema.js';
import { defineWireFields } from '../define-wire-fields.js';
import { at, described, type WireType } from '../wire-field.js';
import type { ScoreActivation } from '../../core/rerank-request.js';
import { describeJsonValue, optionalBooleanValue } from '../wire-fields.js';
import { BATCH_SIZE, INSTRUCTION, MODEL, asSent } from '../wire-types.js';
import { PRIORITY_FIELD, TOKEN_CONTROL_FIELDS } from '../wire-field-groups.js';

/** A text or a non-empty list of texts, as vLLM's ScoreRequest takes each side. */
const TEXTS: JsonSchema = { anyOf: [{ type: 'string' }, { type: 'array', minItems: 1, items: { type: 'string' } }] };

const QUERY_SIDE =
  'The query: a string, or a list of one string (a longer list pairs each item with its document; this service ranks one query).';
const DOCUMENT_SIDE = 'The documents: a list of strings (or one string).';

/** vLLM's `use_activation`: false = the raw score (a logit), true = the activated one (sigmoid); absent = its default. */
const USE_ACTIVATION: WireType<ScoreActivation | undefined> = {
  schema: { type: ['boolean', 'null'], description: 'false = raw scores (logits); default: sigmoid scores in [0, 1].' },
  required: false,
  read(value, param) {
    const use = optionalBooleanValue(value, param);
    return use === undefined ? undefined : use ? 'sigmoid' : 'none';
  },
};

/**
 * The body of vLLM's `POST /score` (and `/v1/score`). Each side has several spellings (`text_1`/`text_2`, `data_1`/`data_2`,
 * and the newer `queries` with `documents` or `items`), so all are handed over as sent and read by readScoreSides.
 */
export const vllmScoreRequestFields = defineWireFields({
  title: 'VllmScoreRequest',
  description: 'vLLM\'s score body; the answer is `{object: "list", data: [{index, object: "score", score}]}` in input order.',
  inputs: {
    text1: at('text_1', asSent({ ...TEXTS, description: QUERY_SIDE })),
    text2: at('text_2', asSent({ ...TEXTS, description: DOCUMENT_SIDE })),
    data1: at('data_1', asSent({ ...TEXTS, description: `${QUERY_SIDE} Another name of text_1.` })),
    data2: at('data_2', asSent({ ...TEXTS, description: `${DOCUMENT_SIDE} Another name of text_2.` })),
    queries: at('queries', asSent({ ...TEXTS, description: `${QUERY_SIDE} The newer name of text_1.` })),
    documents: at('documents', asSent({ ...TEXTS, description: `${DOCUMENT_SIDE} The newer name of text_2 (with queries).` })),
    items: at('items', asSent({ ...TEXTS, description: `${DOCUMENT_SIDE} Another name of documents (with queries).` })),
  },
  fields: {
    model: at('model', described(MODEL, 'The served model; absent = the default model (as vLLM serves one).')),
    activation: at('use_activation', USE_ACTIVATION),
    batchSize: at('batch_size', BATCH_SIZE),
    prompt: at('instruction', INSTRUCTION),
    ...TOKEN_CONTROL_FIELDS,
    ...PRIORITY_FIELD,
  },
});

type Sides = Readonly<Record<'text1' | 'text2' | 'data1' | 'data2' | 'queries' | 'documents' | 'items', unknown>>;

/** Each spelling of the query side, and the documents side's name(s) that go with it. */
const SPELLINGS = [
  { query: ['text1', 'text_1'], documents: [['text2', 'text_2']] },
  { query: ['data1', 'data_1'], documents: [['data2', 'data_2']] },
  {
    query: ['queries', 'queries'],
    documents: [
      ['documents', 'documents'],
      ['items', 'items'],
    ],
  },
] as const;

const sent = (value: unknown): boolean => value !== undefined && value !== null;

/** A side as a list of strings; a string is a list of one. */
function textsOf(value: unknown, param: string): string[] {
  if (!sent(value)) throw invalidRequest(`${param} is required`, param);
  const list: unknown[] = Array.isArray(value) ? value : [value];
  if (list.length === 0) throw invalidRequest(`${param} must not be an empty list`, param);
  return list.map((item, i) => {
    if (typeof item !== 'string')
      throw invalidRequest(`${param}${Array.isArray(value) ? `[${i}]` : ''} must be a string, got ${describeJsonValue(item)}`, param);
    return item;
  });
}

/**
 * The query and the documents, from whichever spelling was sent (in vLLM's order of precedence: text_1, data_1,
 * queries). vLLM pairs a list of N queries with N documents one to one; that is not a ranking of one query's
 * candidates, so only one query (a string or a list of one) is taken.
 */
export function readScoreSides(sides: Sides): { query: string; documents: string[] } {
  const spelling = SPELLINGS.find(({ query: [key] }) => sent(sides[key]));
  if (!spelling) throw invalidRequest('text_1 (or queries) is required: the query', 'text_1');
  const [queryKey, queryParam] = spelling.query;
  const queries = textsOf(sides[queryKey], queryParam);
  if (queries.length > 1) {
    throw invalidRequest(
      `${queryParam} must be one text: this service ranks one query's documents (send each query in its own request)`,
      queryParam,
    );
  }
  const [documentsKey, documentsParam] = spelling.documents.find(([key]) => sent(sides[key])) ?? spelling.documents[0];
  return { query: queries[0] as string, documents: textsOf(sides[documentsKey], documentsParam) };
}
