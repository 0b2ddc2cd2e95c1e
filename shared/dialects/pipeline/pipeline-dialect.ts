import type { RerankOutcome } from '../../core/rerank-outcome.js';
import type { RerankRequest } from '../../core/rerank-request.js';
import type { Dialect, DialectResponse } from '../dialect.js';
import { formatOpenAiError } from '../openai/openai-error-envelope.js';
import {
  expectObject,
  readDocuments,
  readRawScoresActivation,
  readOptionalInteger,
  readOptionalNumber,
  readOptionalString,
  readString,
  type JsonObject,
} from '../wire-fields.js';
import { pipelineRequestSchema } from './pipeline-request-schema.js';
import { pipelineResponseSchema } from './pipeline-response-schema.js';
import { openAiErrorSchema } from '../openai/openai-response-schema.js';

/**
 * Seed 003's read priority (`data.get("refining_docs") or data.get("retrieval_docs")`): the refiner's output
 * when there is any, else the retriever's. A `refining_docs` that is not a list is read (and refused) as sent.
 */
function sourceField(dict: JsonObject): 'refining_docs' | 'retrieval_docs' {
  const refining = dict['refining_docs'];
  if (refining === undefined || refining === null || (Array.isArray(refining) && refining.length === 0)) return 'retrieval_docs';
  return 'refining_docs';
}

/**
 * A reranking stage of seed 003's RAG pipeline: `POST /v1/rag/rerank` takes the pipeline dict, reads `query`
 * and `refining_docs` (when non-empty) else `retrieval_docs` (strings, or objects with `text`), and answers
 * the SAME dict, every other field unchanged, plus `reranking_results:[{text, score}]` (best first),
 * `reranking_docs` (the texts in that order) and `reranking_time` (seconds). Optional `top_k`,
 * `rerank_threshold`, `model`, `raw_scores`. Errors: OpenAI envelope. Never queued: the reply is the request.
 */
export const pipelineDialect: Dialect = {
  name: 'pipeline',
  requestSchema: pipelineRequestSchema,
  responseSchema: pipelineResponseSchema,
  errorSchema: openAiErrorSchema,
  paramNames: { query: 'query', documents: 'retrieval_docs', topN: 'top_k', batchSize: 'batch_size' },
  queueable: false,

  parse(body: unknown): RerankRequest {
    const dict = expectObject(body, 'body');
    const docsField = sourceField(dict);
    return {
      model: readOptionalString(dict, 'model', 'model'),
      query: readString(dict, 'query', 'query'),
      documents: readDocuments(dict[docsField], docsField),
      topN: readOptionalInteger(dict, 'top_k', 'top_k', 0),
      // The texts are what the stage hands on, so every result carries its document.
      returnDocuments: true,
      threshold: readOptionalNumber(dict, 'rerank_threshold', 'rerank_threshold'),
      batchSize: undefined,
      activation: readRawScoresActivation(dict, 'raw_scores', 'raw_scores'),
      prompt: undefined,
      echo: dict,
    };
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
