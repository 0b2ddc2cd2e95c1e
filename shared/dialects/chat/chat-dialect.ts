import { invalidRequest } from '../../core/rerank-error.js';
import type { RerankOutcome } from '../../core/rerank-outcome.js';
import type { RerankRequest } from '../../core/rerank-request.js';
import type { Dialect, DialectContext, DialectResponse } from '../dialect.js';
import { formatOpenAiError } from '../openai/openai-error-envelope.js';
import {
  expectObject,
  parseJsonText,
  readDocuments,
  optionalTruncate,
  readOptionalBoolean,
  readRawScoresActivation,
  readOptionalInteger,
  readOptionalNumber,
  readOptionalString,
  type JsonObject,
} from '../wire-fields.js';
import { readUserContent } from './chat-message.js';
import { chatRequestSchema } from './chat-request-schema.js';
import { chatResponseSchema } from './chat-response-schema.js';
import { openAiErrorSchema } from '../openai/openai-response-schema.js';

const notARerankRequest = (param: string): string =>
  `${param} must be a JSON object string with "query" (string) and "candidates" (array), ` +
  'e.g. {"query": "...", "candidates": ["...", "..."], "top_k": 3}';

/**
 * `stream: true` as OpenAI-compatible servers answer it: the role, then the whole content in one delta, then
 * a chunk with finish_reason (and usage); the HTTP layer adds `data: [DONE]`. The content is one JSON text,
 * so there is nothing to gain from cutting it smaller.
 */
function chatCompletionChunks(head: Record<string, unknown>, content: string, usage: Record<string, number>): unknown[] {
  const chunk = (delta: Record<string, unknown>, finishReason: string | null, extra: Record<string, unknown> = {}) => ({
    ...head,
    object: 'chat.completion.chunk',
    choices: [{ index: 0, delta, finish_reason: finishReason }],
    ...extra,
  });
  return [chunk({ role: 'assistant', content: '' }, null), chunk({ content }, null), chunk({}, 'stop', { usage })];
}

/**
 * Chat-based rerank (seed 001): `POST /v1/chat/completions` whose user message content is the JSON
 * string `{query, candidates, top_k, prompt, batch_size}`; the reply is a chat completion whose
 * `choices[0].message.content` is the JSON string `{"results":[{"index","score"(,"document")}]}`.
 */
export const chatDialect: Dialect = {
  name: 'chat',
  requestSchema: chatRequestSchema,
  responseSchema: chatResponseSchema,
  errorSchema: openAiErrorSchema,
  paramNames: { query: 'query', documents: 'candidates', topN: 'top_k', batchSize: 'batch_size' },

  parse(body: unknown): RerankRequest {
    const obj = expectObject(body, 'body');
    const stream = readOptionalBoolean(obj, 'stream', 'stream') === true;
    const { content, param } = readUserContent(obj['messages']);
    const parsed = parseJsonText(content, param);
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      throw invalidRequest(notARerankRequest(param), param);
    }
    const data = parsed as JsonObject;
    if (typeof data['query'] !== 'string' || !Array.isArray(data['candidates'])) {
      throw invalidRequest(notARerankRequest(param), param);
    }
    const includeDocs = readOptionalBoolean(data, 'include_docs', 'include_docs');
    return {
      model: readOptionalString(obj, 'model', 'model'),
      query: data['query'],
      documents: readDocuments(data['candidates'], 'candidates'),
      topN: readOptionalInteger(data, 'top_k', 'top_k', 0),
      // Seed 000's client never sends include_docs and drops results without a document when its caller asked for
      // them, so documents are on unless the content turns them off.
      returnDocuments: includeDocs ?? readOptionalBoolean(data, 'return_documents', 'return_documents') ?? true,
      threshold: readOptionalNumber(data, 'rerank_threshold', 'rerank_threshold'),
      batchSize: readOptionalInteger(data, 'batch_size', 'batch_size', 1),
      activation: readRawScoresActivation(data, 'raw_scores', 'raw_scores'),
      prompt: readOptionalString(data, 'prompt', 'prompt'),
      ...optionalTruncate(readOptionalBoolean(data, 'truncate', 'truncate')),
      ...(stream ? { echo: { stream } } : {}),
    };
  },

  formatOutcome(outcome: RerankOutcome, context: DialectContext, request?: RerankRequest): DialectResponse {
    const content = JSON.stringify({
      results: outcome.results.map((r) => ({
        index: r.index,
        score: r.score,
        ...(r.document ? { document: r.document.text } : {}),
      })),
    });
    const head = { id: `chatcmpl-${outcome.id}`, created: context.now, model: outcome.model };
    const usage = { prompt_tokens: outcome.usage.totalTokens, completion_tokens: 0, total_tokens: outcome.usage.totalTokens };
    const body = { ...head, object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }], usage };
    if (request?.echo?.['stream'] !== true) return { status: 200, body };
    return { status: 200, body, events: chatCompletionChunks(head, content, usage) };
  },

  formatError: formatOpenAiError,
};
