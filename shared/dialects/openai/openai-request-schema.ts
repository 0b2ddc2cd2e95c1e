import type { JsonSchema } from '../../openapi/json-schema.js';
import {
  BATCH_SIZE_FIELD,
  DOCUMENT,
  MODEL_FIELD,
  QUERY_STRING,
  RAW_SCORES_FIELD,
  THRESHOLD_FIELD,
  TRUNCATE_FIELD,
  optionalBoolean,
  optionalInteger,
} from '../../openapi/request-schema-parts.js';

/** With `rank_fields`, any object is a document (its listed fields are scored); without, objects need `text`. */
const RANK_FIELDS_SENT: JsonSchema = { type: 'object', required: ['rank_fields'], properties: { rank_fields: { type: 'array' } } };

/** The body of `POST /v1/rerank` (Jina / Cohere v1 style), as openAiDialect.parse reads it. */
export const openAiRequestSchema = {
  title: 'OpenAiRerankRequest',
  type: 'object',
  required: ['query', 'documents'],
  properties: {
    model: MODEL_FIELD,
    query: QUERY_STRING,
    documents: {
      type: 'array',
      minItems: 1,
      description: 'Strings, or objects with a string `text` (objects are returned as sent). With `rank_fields`: any objects (or strings, read as `{text}`).',
    },
    top_n: optionalInteger(0, 'How many results to return, best first; absent or larger than the list = all, 0 = none.'),
    return_documents: optionalBoolean('true = every result carries its document.'),
    rerank_threshold: THRESHOLD_FIELD,
    batch_size: BATCH_SIZE_FIELD,
    raw_scores: RAW_SCORES_FIELD,
    truncate: TRUNCATE_FIELD,
    rank_fields: {
      type: ['array', 'null'],
      minItems: 1,
      items: { type: 'string' },
      description: 'Cohere v1: score each (object) document as its listed fields, serialized as `field: value` lines; a listed field a document lacks is a 400.',
    },
    max_chunks_per_doc: optionalInteger(1, 'Cohere v1: split long documents into word windows; a document scores as its best chunk.'),
  },
  if: RANK_FIELDS_SENT,
  then: { properties: { documents: { type: 'array', items: { type: ['string', 'object'] } } } },
  else: { properties: { documents: { type: 'array', items: DOCUMENT } } },
} as const satisfies JsonSchema;
