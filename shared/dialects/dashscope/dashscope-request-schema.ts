import type { JsonSchema } from '../../openapi/json-schema.js';
import {
  BATCH_SIZE_FIELD,
  MODEL_FIELD,
  QUERY_STRING,
  RAW_SCORES_FIELD,
  THRESHOLD_FIELD,
  TRUNCATE_FIELD,
  documentList,
  optionalBoolean,
  optionalInteger,
  optionalString,
} from '../../openapi/request-schema-parts.js';

/** The body of DashScope's text-rerank endpoint, as dashScopeDialect.parse reads it. */
export const dashScopeRequestSchema = {
  title: 'DashScopeRerankRequest',
  type: 'object',
  required: ['input'],
  properties: {
    model: MODEL_FIELD,
    input: {
      type: 'object',
      required: ['query', 'documents'],
      properties: {
        query: QUERY_STRING,
        documents: documentList('Strings, or objects with a string `text` (objects are returned as sent).'),
      },
    },
    parameters: {
      type: ['object', 'null'],
      properties: {
        top_n: optionalInteger(0, 'How many results to return, best first; absent or larger than the list = all, 0 = none.'),
        return_documents: optionalBoolean('true = every result carries its document.'),
        rerank_threshold: THRESHOLD_FIELD,
        batch_size: BATCH_SIZE_FIELD,
        raw_scores: RAW_SCORES_FIELD,
        instruct: optionalString('A task instruction (qwen3-rerank style), passed to scorers that take one.'),
        truncate: TRUNCATE_FIELD,
      },
    },
  },
} as const satisfies JsonSchema;
