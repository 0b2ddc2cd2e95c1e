import type { RerankOutcome } from '../../core/rerank-outcome.js';
import type { RerankRequest } from '../../core/rerank-request.js';
import { toRerankRequest } from '../define-wire-fields.js';
import type { Dialect, DialectContext, DialectResponse } from '../dialect.js';
import { EXAMPLE_DOCUMENTS, EXAMPLE_QUERY } from '../example-texts.js';
import { formatMessageAndOpenAiError } from '../openai/openai-error-envelope.js';
import { messageAndOpenAiErrorSchema } from '../openai/openai-response-schema.js';
import { readScoreSides, vllmScoreRequestFields } from './vllm-score-request-fields.js';
import { vllmScoreResponseSchema } from './vllm-score-response-schema.js';

const NAMES = vllmScoreRequestFields.paramNames({ query: 'text_1', documents: 'text_2' });

/**
 * vLLM's score API: `POST /score` and `/v1/score` `{model, text_1, text_2}` (or `queries` / `documents`) ->
 * `{id, object: "list", created, model, data: [{index, object: "score", score}], usage}`, every document's score in
 * input order (vLLM does not sort). Scores as vLLM's cross-encoders give them: the sigmoid of the logit.
 * Errors: the OpenAI-style `error` object vLLM answers, with its `message` also at the top (older vLLM).
 */
export const vllmScoreDialect: Dialect = {
  name: 'vllm-score',
  paths: ['/score', '/v1/score'],
  example: { model: 'BAAI/bge-reranker-v2-m3', text_1: EXAMPLE_QUERY, text_2: EXAMPLE_DOCUMENTS },
  requestSchema: vllmScoreRequestFields.schema,
  paramNames: () => NAMES,
  parse(body: unknown): RerankRequest {
    const { inputs, fields } = vllmScoreRequestFields.read(body);
    const { query, documents } = readScoreSides(inputs);
    return toRerankRequest({ ...fields, query, documents: documents.map((text) => ({ text })) });
  },
  responseSchema: vllmScoreResponseSchema,
  errorSchema: { ...messageAndOpenAiErrorSchema, title: 'VllmError' },

  formatOutcome(outcome: RerankOutcome, context: DialectContext): DialectResponse {
    const inInputOrder = [...outcome.results].sort((a, b) => a.index - b.index);
    return {
      status: 200,
      body: {
        id: `score-${outcome.id}`,
        object: 'list',
        created: context.now,
        model: outcome.model,
        data: inInputOrder.map((r) => ({ index: r.index, object: 'score', score: r.score })),
        usage: { prompt_tokens: outcome.usage.totalTokens, total_tokens: outcome.usage.totalTokens, completion_tokens: 0 },
      },
    };
  },

  formatError: formatMessageAndOpenAiError,
};
