import type { JsonSchema } from '../../openapi/json-schema.js';
import { MODEL_FIELD, QUERY_STRING, RAW_SCORES_FIELD, optionalBoolean, optionalInteger } from '../../openapi/request-schema-parts.js';

/** The body of `POST /voyage/v1/rerank` (Voyage AI's rerank), as voyageDialect.parse reads it. */
export const voyageRequestSchema = {
  title: 'VoyageRerankRequest',
  type: 'object',
  required: ['query', 'documents'],
  properties: {
    model: { ...MODEL_FIELD, description: "Required by Voyage; here Voyage's names alias the default model." },
    query: QUERY_STRING,
    documents: { type: 'array', minItems: 1, items: { type: 'string' }, description: 'Strings only, as Voyage takes them.' },
    top_k: optionalInteger(0, 'How many results to return, best first; absent or larger than the list = all.'),
    return_documents: optionalBoolean('true = every result carries its document text.'),
    truncation: optionalBoolean('Default true (Voyage): cut texts longer than the limits; false = 413 instead.'),
    raw_scores: RAW_SCORES_FIELD,
  },
} as const satisfies JsonSchema;

export const voyageResponseSchema = {
  title: 'VoyageRerankResponse',
  type: 'object',
  required: ['object', 'data', 'model', 'usage'],
  properties: {
    object: { const: 'list' },
    data: {
      type: 'array',
      description: 'Best first; ties keep the input order.',
      items: {
        type: 'object',
        required: ['index', 'relevance_score'],
        properties: { index: { type: 'integer', minimum: 0 }, relevance_score: { type: 'number' }, document: { type: 'string' } },
      },
    },
    model: { type: 'string' },
    usage: { type: 'object', required: ['total_tokens'], properties: { total_tokens: { type: 'integer' } } },
  },
} as const satisfies JsonSchema;
