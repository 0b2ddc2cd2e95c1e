import type { JsonSchema } from '../../openapi/json-schema.js';
import { MODEL_FIELD, QUERY_STRING, RAW_SCORES_FIELD, THRESHOLD_FIELD, documentList, optionalInteger } from '../../openapi/request-schema-parts.js';

/** `refining_docs` counts when it is sent and is neither null nor an empty list (seed 003's `or`). */
const REFINING_DOCS_SENT: JsonSchema = {
  type: 'object',
  required: ['refining_docs'],
  properties: { refining_docs: { not: { anyOf: [{ type: 'null' }, { type: 'array', maxItems: 0 }] } } },
};

/** The pipeline dict of seed 003's reranking stage, as pipelineDialect.parse reads it; every other field is echoed back. */
export const pipelineRequestSchema = {
  title: 'PipelineRerankRequest',
  type: 'object',
  required: ['query'],
  description:
    'The pipeline dict: `refining_docs` when it is a non-empty list, else `retrieval_docs`, are the candidates. ' +
    'Any other fields are returned unchanged.',
  properties: {
    model: MODEL_FIELD,
    query: QUERY_STRING,
    refining_docs: { description: "The refiner's output: read instead of retrieval_docs when it is a non-empty list." },
    retrieval_docs: { description: "The retriever's output: strings, or objects with a string `text`." },
    top_k: optionalInteger(0, 'How many results to return, best first; absent or larger than the list = all, 0 = none.'),
    rerank_threshold: THRESHOLD_FIELD,
    raw_scores: RAW_SCORES_FIELD,
  },
  if: REFINING_DOCS_SENT,
  then: { properties: { refining_docs: documentList('Strings, or objects with a string `text`.') } },
  else: { required: ['retrieval_docs'], properties: { retrieval_docs: documentList('Strings, or objects with a string `text`.') } },
} as const satisfies JsonSchema;
