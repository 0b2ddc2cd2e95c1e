import type { RerankOutcome } from '../../core/rerank-outcome.js';
import type { RerankRequest } from '../../core/rerank-request.js';
import { declaredParse } from '../define-wire-fields.js';
import type { Dialect, DialectContext, DialectResponse } from '../dialect.js';
import { EXAMPLE_DOCUMENTS, EXAMPLE_QUERY } from '../example-texts.js';
import { formatFastApiError } from '../nim/nim-dialect.js';
import { fastApiErrorSchema } from '../nim/nim-response-schema.js';
import { zeroEntropyRequestFields } from './zeroentropy-request-fields.js';
import { zeroEntropyResponseSchema } from './zeroentropy-response-schema.js';

/** The `zeroentropy` client posts `models.rerank()` to `{baseURL}/models/rerank`, its baseURL ending in `/v1`. */
export const ZEROENTROPY_RERANK_PATH = '/v1/models/rerank';

/** UTF-8 bytes of what was sent to rank (ZeroEntropy's `total_bytes`, which it rate-limits by). */
const sentBytes = (request: RerankRequest | undefined): number =>
  request === undefined ? 0 : request.documents.reduce((sum, d) => sum + Buffer.byteLength(d.text), Buffer.byteLength(request.query));

/**
 * ZeroEntropy rerank: `POST /v1/models/rerank {model, query, documents (strings), top_n, latency}` ->
 * `{results: [{index, relevance_score}], actual_latency_mode, e2e_latency, inference_latency, total_bytes,
 * total_tokens}` best first, scores in [0, 1]. `latency: "fast"` is never a job (past the synchronous limits, a 413
 * naming "slow"); `"slow"` and none behave as every other rerank route. Errors FastAPI's `{detail}`.
 * Extension: `batch_size`.
 */
export const zeroEntropyDialect: Dialect = {
  name: 'zeroentropy',
  paths: [ZEROENTROPY_RERANK_PATH],
  example: { model: 'zerank-2', query: EXAMPLE_QUERY, documents: EXAMPLE_DOCUMENTS, top_n: 2, latency: 'fast' },
  ...declaredParse(zeroEntropyRequestFields),
  responseSchema: zeroEntropyResponseSchema,
  errorSchema: { ...fastApiErrorSchema, title: 'ZeroEntropyError' },

  formatOutcome(outcome: RerankOutcome, _context: DialectContext, request?: RerankRequest): DialectResponse {
    return {
      status: 200,
      body: {
        results: outcome.results.map((r) => ({ index: r.index, relevance_score: r.score })),
        // A job's answer (waited for or polled) was served by the slow tier; a polled job's has no request.
        actual_latency_mode: outcome.queued === true || request === undefined ? 'slow' : 'fast',
        e2e_latency: outcome.timings.totalMs / 1000,
        inference_latency: outcome.timings.scoringMs / 1000,
        total_bytes: sentBytes(request),
        total_tokens: outcome.usage.totalTokens,
      },
    };
  },

  formatError: formatFastApiError,
};
