import { invalidRequest } from '../../core/rerank-error.js';
import type { RerankOutcome } from '../../core/rerank-outcome.js';
import type { RerankRequest, RerankStrategy } from '../../core/rerank-request.js';
import type { Dialect, DialectResponse } from '../dialect.js';
import { readInterleavedText } from '../llama-stack/interleaved-content.js';
import { formatLlamaStackError } from '../llama-stack/llama-stack-error-envelope.js';
import { expectObject, readOptionalInteger, readOptionalNumber, readOptionalString, readRawScoresActivation } from '../wire-fields.js';
import { readRagDocuments } from './rag-documents.js';
import { readRagRerankConfig } from './rag-rerank-config.js';
import { scoreMetrics } from './score-metrics.js';
import { ragToolRequestSchema } from './rag-tool-request-schema.js';
import { ragToolResponseSchema } from './rag-tool-response-schema.js';
import { llamaStackErrorSchema } from '../llama-stack/llama-stack-response-schema.js';

/** The RFC's `top_k: int = 5`. */
export const DEFAULT_TOP_K = 5;

const STRATEGIES: readonly RerankStrategy[] = ['none', 'default', 'boost', 'hybrid', 'llm_rerank'];

/** RerankingStrategy by value or by name (the RFC's own example sends `"DEFAULT"`); its docstring's `RERANK` = default. */
function readStrategy(obj: Record<string, unknown>): RerankStrategy {
  const text = readOptionalString(obj, 'rerank_strategy', 'rerank_strategy');
  if (text === undefined) return 'default';
  const name = text.toLowerCase();
  if (name === 'rerank') return 'default';
  if (!STRATEGIES.includes(name as RerankStrategy)) {
    throw invalidRequest(`rerank_strategy must be one of ${STRATEGIES.join(', ')} (any case)`, 'rerank_strategy');
  }
  return name as RerankStrategy;
}

/** Raw scores as JSON can carry them: a NaN (failed pair) becomes null. */
const jsonScore = (score: number): number | null => (Number.isFinite(score) ? score : null);

/**
 * Seed 002's dedicated rerank endpoint: `POST /tool-runtime/rag-tool/rerank`
 * `{query, retrieved_docs, top_k = 5, rerank_strategy, reranker_model_id, rerank_config, rerank_threshold}` ->
 * RerankResponse `{reranked_documents:[{index, relevance_score}], metadata:{query, total_chunks, raw_scores,
 * execution_time_ms, mean_score, std_score, score_gap, strategy, model, fallback?}}`.
 * `reranker_model_id` names a served model, or the upstream's model when `rerank_config.api_url` is given.
 * Never queued: the metadata needs the raw scores and the query, which a job's outcome does not keep.
 */
export const ragToolDialect: Dialect = {
  name: 'rag-tool',
  requestSchema: ragToolRequestSchema,
  responseSchema: ragToolResponseSchema,
  errorSchema: llamaStackErrorSchema,
  paramNames: { query: 'query', documents: 'retrieved_docs', topN: 'top_k', batchSize: 'batch_size' },
  queueable: false,
  acceptsEmptyDocuments: true,

  parse(body: unknown): RerankRequest {
    const obj = expectObject(body, 'body');
    const strategy = readStrategy(obj);
    const modelId = readOptionalString(obj, 'reranker_model_id', 'reranker_model_id');
    const config = readRagRerankConfig(obj['rerank_config'], strategy, modelId);
    return {
      model: config.upstream ? undefined : modelId,
      query: readInterleavedText(obj['query'], 'query'),
      documents: readRagDocuments(obj['retrieved_docs'], 'retrieved_docs'),
      topN: readOptionalInteger(obj, 'top_k', 'top_k', 0) ?? DEFAULT_TOP_K,
      returnDocuments: false,
      threshold: readOptionalNumber(obj, 'rerank_threshold', 'rerank_threshold'),
      batchSize: undefined,
      activation: readRawScoresActivation(obj, 'raw_scores', 'raw_scores'),
      prompt: undefined,
      strategy,
      ...config,
    };
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
