import type { JsonSchema } from '../../openapi/json-schema.js';
import { BATCH_SIZE_FIELD, CONTENT_ITEM, MODEL_FIELD, RAW_SCORES_FIELD, THRESHOLD_FIELD, optionalInteger } from '../../openapi/request-schema-parts.js';

/** The body of Llama Stack's `POST /v1alpha/inference/rerank`, as llamaStackDialect.parse reads it. */
export const llamaStackRequestSchema = {
  title: 'LlamaStackRerankRequest',
  type: 'object',
  required: ['query', 'items'],
  properties: {
    model: { ...MODEL_FIELD, description: 'Required by Llama Stack; here its absence means the default model.' },
    query: { ...CONTENT_ITEM, description: 'A string or a text item `{type: "text", text}`; image items are refused.' },
    items: { type: 'array', minItems: 1, items: CONTENT_ITEM, description: 'Strings or text items `{type: "text", text}`.' },
    max_num_results: optionalInteger(0, 'How many results to return, best first; absent = all.'),
    rerank_threshold: THRESHOLD_FIELD,
    batch_size: BATCH_SIZE_FIELD,
    raw_scores: RAW_SCORES_FIELD,
  },
} as const satisfies JsonSchema;
