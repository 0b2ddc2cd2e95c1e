import type { JsonSchema } from '../json-schema.js';
import { documentList } from '../request-schema-parts.js';
import { defineWireFields } from '../define-wire-fields.js';
import { at } from '../wire-field.js';
import { MODEL, QUERY, RAW_SCORES, THRESHOLD, TOP_N, asSent } from '../wire-types.js';

/** `refining_docs` counts when it is sent and is neither null nor an empty list (a Python pipeline's `refining_docs or retrieval_docs`). */
const REFINING_DOCS_SENT: JsonSchema = {
  type: 'object',
  required: ['refining_docs'],
  properties: { refining_docs: { not: { anyOf: [{ type: 'null' }, { type: 'array', maxItems: 0 }] } } },
};

/**
 * The dict a RAG pipeline hands its reranking stage; every other field is echoed back. Which of the two document
 * lists is read depends on the other, so both are handed to the dialect as sent (see documentsSource).
 */
export const pipelineRequestFields = defineWireFields({
  title: 'PipelineRerankRequest',
  description:
    'The pipeline dict: `refining_docs` when it is a non-empty list, else `retrieval_docs`, are the candidates. ' +
    'Any other fields are returned unchanged.',
  inputs: {
    refiningDocs: at(
      'refining_docs',
      asSent({ description: "The refiner's output: read instead of retrieval_docs when it is a non-empty list." }),
    ),
    retrievalDocs: at('retrieval_docs', asSent({ description: "The retriever's output: strings, or objects with a string `text`." })),
  },
  fields: {
    model: at('model', MODEL),
    query: at('query', QUERY),
    topN: at('top_k', TOP_N),
    threshold: at('rerank_threshold', THRESHOLD),
    activation: at('raw_scores', RAW_SCORES),
  },
  rules: {
    if: REFINING_DOCS_SENT,
    then: { properties: { refining_docs: documentList('Strings, or objects with a string `text`.') } },
    else: { required: ['retrieval_docs'], properties: { retrieval_docs: documentList('Strings, or objects with a string `text`.') } },
  },
});

/**
 * The pipeline's read priority (`data.get("refining_docs") or data.get("retrieval_docs")`): the refiner's output
 * when there is any, else the retriever's. A `refining_docs` that is not a list is read (and refused) as sent.
 */
export function documentsSource(refiningDocs: unknown): 'refiningDocs' | 'retrievalDocs' {
  const absent = refiningDocs === undefined || refiningDocs === null || (Array.isArray(refiningDocs) && refiningDocs.length === 0);
  return absent ? 'retrievalDocs' : 'refiningDocs';
}
