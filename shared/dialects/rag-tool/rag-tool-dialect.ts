import type { RerankOutcome } from '../../core/rerank-outcome.js';
import type { RerankRequest } from '../../core/rerank-request.js';
import { toRerankRequest } from '../define-wire-fields.js';
import type { Dialect, DialectResponse } from '../dialect.js';
import { formatLlamaStackError } from '../llama-stack/llama-stack-error-envelope.js';
import { readRagRerankConfig } from './rag-rerank-config.js';
import { scoreMetrics } from './score-metrics.js';
import { ragToolRequestFields } from './rag-tool-request-fields.js';
import { ragToolResponseSchema } from './rag-tool-response-schema.js';
import { llamaStackErrorSchema } from '../llama-stack/llama-stack-response-schema.js';
import { EXAMPLE_DOCUMENTS, EXAMPLE_QUERY } from '../example-texts.js';

/** The RFC's `top_k: int = 5`. */
export { DEFAULT_TOP_K } from './rag-tool-request-fields.js';

// The strategy, model and rerank_config are read together (inputs), so their domain fields are spelled here.
const PARAM_NAMES = ragToolRequestFields.paramNames({
  model: 'reranker_model_id',
  strategy: 'rerank_strategy',
  upstream: 'rerank_config.api_url',
  boost: 'rerank_config.boost',
});

/** Raw scores as JSON can carry them: a NaN (failed pair) becomes null. */
const jsonScore = (score: number): number | null => (Number.isFinite(score) ? score : null);

/** The RAG tool's dedicated rerank endpoint; Llama Stack serves its APIs under `/v1` too, so both spellings are routed. */
export const RAG_TOOL_RERANK_PATH = '/tool-runtime/rag-tool/rerank';

/**
 * The RAG stack's dedicated rerank endpoint (Llama Stack's proposed rag-tool API): `POST /tool-runtime/rag-tool/rerank`
 * `{query, retrieved_docs, top_k = 5, rerank_strategy, reranker_model_id, rerank_config, rerank_threshold}` ->
 * RerankResponse `{reranked_documents:[{index, relevance_score}], metadata:{query, total_chunks, raw_scores,
 * execution_time_ms, mean_score, std_score, score_gap, strategy, model, fallback?}}`.
 * `reranker_model_id` names a served model, or the upstream's model when `rerank_config.api_url` is given.
 * Never queued: the metadata needs the raw scores and the query, which a job's outcome does not keep.
 */
export const ragToolDialect: Dialect = {
  name: 'rag-tool',
  paths: [RAG_TOOL_RERANK_PATH, `/v1${RAG_TOOL_RERANK_PATH}`],
  example: {
    query: EXAMPLE_QUERY,
    retrieved_docs: EXAMPLE_DOCUMENTS.map((text) => ({ content: text })),
    top_k: 2,
    rerank_strategy: 'default',
  },
  requestSchema: ragToolRequestFields.schema,
  responseSchema: ragToolResponseSchema,
  errorSchema: llamaStackErrorSchema,
  paramNames: () => PARAM_NAMES,
  queueable: false,
  acceptsEmptyDocuments: true,

  parse(body: unknown): RerankRequest {
    const { inputs, fields } = ragToolRequestFields.read(body);
    const { strategy, modelId } = inputs;
    const config = readRagRerankConfig(inputs.rerankConfig, ragToolRequestFields.param('rerankConfig'), strategy, modelId);
    return toRerankRequest({ ...fields, model: config.upstream ? undefined : modelId, strategy, ...config });
  },

  formatOutcome(outcome: RerankOutcome, _context, request?: RerankRequest): DialectResponse {
    const query = request?.query;
    const raw = outcome.rawScores ?? [];
    const reranked = outcome.results.map((r) => ({ index: r.index, relevance_score: r.score }));
    if (raw.length === 0) {
      // The RFC's answer for no chunks: nothing ranked, the query alone in the metadata.
      return { status: 200, body: { reranked_documents: reranked, metadata: query === undefined ? {} : { query } } };
    }
    return {
      status: 200,
      body: {
        reranked_documents: reranked,
        metadata: {
          ...(query === undefined ? {} : { query }),
          total_chunks: raw.length,
          raw_scores: raw.map(jsonScore),
          execution_time_ms: outcome.timings.scoringMs,
          ...scoreMetrics(raw),
          strategy: request?.strategy ?? 'default',
          model: outcome.model,
          ...(outcome.fallback ? { fallback: true } : {}),
        },
      },
    };
  },

  formatError: formatLlamaStackError,
};
