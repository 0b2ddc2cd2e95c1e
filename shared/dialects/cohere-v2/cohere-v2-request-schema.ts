import type { JsonSchema } from '../../openapi/json-schema.js';
import {
  BATCH_SIZE_FIELD,
  MODEL_FIELD,
  QUERY_STRING,
  RAW_SCORES_FIELD,
  THRESHOLD_FIELD,
  optionalBoolean,
  optionalInteger,
} from '../../openapi/request-schema-parts.js';

/** The body of `POST /v2/rerank`, as cohereV2Dialect.parse reads it. */
export const cohereV2RequestSchema = {
  title: 'CohereV2RerankRequest',
  type: 'object',
  required: ['query', 'documents'],
  properties: {
    model: { ...MODEL_FIELD, description: 'Required by Cohere; here its absence means the default model.' },
    query: QUERY_STRING,
    documents: {
      type: 'array',
      minItems: 1,
      items: { type: 'string', 'x-error-hint': 'Cohere v2 accepts strings only' },
      description: 'Strings only (v1 object documents and rank_fields were dropped in v2).',
    },
    top_n: optionalInteger(0, 'How many results to return, best first; absent or larger than the list = all, 0 = none.'),
    max_tokens_per_doc: optionalInteger(1, 'Scores only the first this many (whitespace) words of each document.'),
    return_documents: optionalBoolean('Extension (v1 style): true = every result carries `document: {text}`.'),
    rerank_threshold: THRESHOLD_FIELD,
    batch_size: BATCH_SIZE_FIELD,
    raw_scores: RAW_SCORES_FIELD,
  },
} as const satisfies JsonSchema;
