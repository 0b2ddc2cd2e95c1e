import type { RerankOutcome } from '../../core/rerank-outcome.js';
import type { RerankRequest } from '../../core/rerank-request.js';
import type { Dialect, DialectResponse } from '../dialect.js';
import { formatOpenAiError } from '../openai/openai-error-envelope.js';
import { toRerankRequest } from '../define-wire-fields.js';
import { readDocuments, type JsonObject } from '../wire-fields.js';
import { documentsSource, pipelineRequestFields } from './pipeline-request-fields.js';
import { pipelineResponseSchema } from './pipeline-response-schema.js';
import { openAiErrorSchema } from '../openai/openai-response-schema.js';
import { EXAMPLE_DOCUMENTS, EXAMPLE_QUERY } from '../example-texts.js';

/** How the documents list read from a dict is spelled: errors name the list actually read. */
const documentsParam = (dict: unknown): string =>
  pipelineRequestFields.param(documentsSource(pipelineRequestFields.sent(dict, 'refiningDocs')));

export const PIPELINE_RERANK_PATH = '/v1/rag/rerank';

/**
 * A reranking stage of a RAG pipeline whose stages share one dict: `POST /v1/rag/rerank` takes the pipeline dict, reads `query`
 * and `refining_docs` (when non-empty) else `retrieval_docs` (strings, or objects with `text`), and answers
 * the SAME dict, every other field unchanged, plus `reranking_results:[{text, score}]` (best first),
 * `reranking_docs` (the texts in that order) and `reranking_time` (seconds). Optional `top_k`,
 * `rerank_threshold`, `model`, `raw_scores`. Errors: OpenAI envelope. Never queued: the reply is the request.
 */
export const pipelineDialect: Dialect = {
  name: 'pipeline',
  paths: [PIPELINE_RERANK_PATH],
  example: { query: EXAMPLE_QUERY, retrieval_docs: EXAMPLE_DOCUMENTS, top_k: 2 },
  requestSchema: pipelineRequestFields.schema,
  responseSchema: pipelineResponseSchema,
  errorSchema: openAiErrorSchema,
  paramNames: (request) => pipelineRequestFields.paramNames({ documents: documentsParam(request.echo) }),
  queueable: false,

  parse(body: unknown): RerankRequest {
    const { inputs, fields } = pipelineRequestFields.read(body);
    const source = documentsSource(inputs.refiningDocs);
    return toRerankRequest({
      ...fields,
      documents: readDocuments(inputs[source], pipelineRequestFields.param(source)),
      // The texts are what the stage hands on, so every result carries its document.
      returnDocuments: true,
      echo: body as JsonObject,
    });
  },

  formatOutcome(outcome: RerankOutcome, _context, request?: RerankRequest): DialectResponse {
    const ranked = outcome.results.map((r) => ({
      text: r.document?.text ?? request?.documents[r.index]?.text ?? '',
      score: r.score,
    }));
    return {
      status: 200,
      body: {
        ...request?.echo,
        reranking_results: ranked,
        reranking_docs: ranked.map((r) => r.text),
        reranking_time: outcome.timings.totalMs / 1000,
      },
    };
  },

  formatError: formatOpenAiError,
};
