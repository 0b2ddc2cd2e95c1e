import { invalidRequest } from '../../core/rerank-error.js';
import type { RerankDocument } from '../../core/rerank-request.js';
import { defineWireFields } from '../define-wire-fields.js';
import { at, described, type WireType } from '../wire-field.js';
import { describeJsonValue, expectObject, optionalIntegerValue, optionalStringValue, type JsonObject } from '../wire-fields.js';
import { BATCH_SIZE, MODEL, QUERY, asSent, booleanOrAbsent } from '../wire-types.js';

const RECORD = {
  type: 'object',
  properties: { id: { type: 'string' }, title: { type: 'string' }, content: { type: 'string' } },
  description: 'Scored as its title and content together (at least one of them); `id` comes back with its score.',
} as const;

/**
 * Vertex AI's RankingRecord: `{id, title, content}`, scored as title and content together. What a result returns is
 * kept as the document's source: the record's id, title and content, or its id alone when details are not wanted.
 */
const RECORDS: WireType<RerankDocument[], { readonly ignoreDetails: boolean | undefined }> = {
  schema: { type: 'array', minItems: 1, items: RECORD, description: 'The records to rank.' },
  required: true,
  read(value, param, { ignoreDetails }) {
    if (value === undefined || value === null) throw invalidRequest(`${param} is required`, param);
    if (!Array.isArray(value)) throw invalidRequest(`${param} must be an array of records, got ${describeJsonValue(value)}`, param);
    return value.map((item: unknown, i): RerankDocument => {
      const record = expectObject(item, `${param}[${i}]`);
      const id = optionalStringValue(record['id'], `${param}[${i}].id`);
      const title = optionalStringValue(record['title'], `${param}[${i}].title`);
      const content = optionalStringValue(record['content'], `${param}[${i}].content`);
      const text = [title, content].filter((part): part is string => part !== undefined && part !== '').join('\n');
      if (text === '') throw invalidRequest(`${param}[${i}] needs a title or a content to be ranked`, `${param}[${i}]`);
      const details: JsonObject = ignoreDetails
        ? {}
        : { ...(title === undefined ? {} : { title }), ...(content === undefined ? {} : { content }) };
      return { text, source: { ...(id === undefined ? {} : { id }), ...details } };
    });
  },
};

/** `topN`: unset, or no bigger than zero, returns every record (Vertex AI's rule). */
const TOP_N: WireType<number | undefined> = {
  schema: { type: ['integer', 'null'], description: 'How many records to return, best first; unset or <= 0 = all.' },
  required: false,
  read(value, param) {
    const topN = optionalIntegerValue(value, param, Number.MIN_SAFE_INTEGER);
    return topN === undefined || topN <= 0 ? undefined : topN;
  },
};

/** The body of Vertex AI's `rankingConfigs/{c}:rank` (Discovery Engine RankRequest, proto3 JSON). */
export const vertexRequestFields = defineWireFields({
  title: 'VertexRankRequest',
  description: "Vertex AI ranking API's RankRequest; the answer is `{records: [{id, score, title?, content?}]}`, best first.",
  inputs: {
    ignoreDetails: at('ignoreRecordDetailsInResponse', booleanOrAbsent('true = each returned record carries only its id and score.')),
    rankingConfig: at('rankingConfig', asSent({ type: ['string', 'null'], description: 'Named by the path too; not read.' })),
    userLabels: at('userLabels', asSent({ type: ['object', 'null'], description: 'Accepted; not read.' })),
  },
  fields: {
    model: at(
      'model',
      described(MODEL, 'A Vertex AI ranking model name (an alias of the default model) or a served model id; absent = the default model.'),
    ),
    query: at('query', QUERY),
    documents: at('records', RECORDS),
    topN: at('topN', TOP_N),
    batchSize: at('batch_size', BATCH_SIZE),
  },
});
