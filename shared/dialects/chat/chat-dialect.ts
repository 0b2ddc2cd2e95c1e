import { invalidRequest } from '../../core/rerank-error.js';
import type { RerankOutcome } from '../../core/rerank-outcome.js';
import type { RerankRequest } from '../../core/rerank-request.js';
import type { Dialect, DialectContext, DialectResponse } from '../dialect.js';
import { formatOpenAiError } from '../openai/openai-error-envelope.js';
import { toRerankRequest } from '../define-wire-fields.js';
import { parseJsonText, type JsonObject } from '../wire-fields.js';
import { chatContentFields, chatRequestFields } from './chat-request-fields.js';
import { chatResponseSchema } from './chat-response-schema.js';
import { openAiErrorSchema } from '../openai/openai-response-schema.js';
import { EXAMPLE_DOCUMENTS, EXAMPLE_QUERY } from '../example-texts.js';

const notARerankRequest = (param: string): string =>
  `${param} must be a JSON object string with "query" (string) and "candidates" (array), ` +
  'e.g. {"query": "...", "candidates": ["...", "..."], "top_k": 3}';

const PARAM_NAMES = chatContentFields.paramNames();

/**
 * `stream: true` as OpenAI-compatible servers answer it: the role, then the whole content in one delta, then
 * a chunk with finish_reason (and usage); the HTTP layer adds `data: [DONE]`. The content is one JSON text,
 * so there is nothing to gain from cutting it smaller.
 */
/**
 * The reply as OpenAI streams it: a role chunk, the content, the finish chunk; with `stream_options.include_usage` an
 * extra last chunk carries the usage with `choices: []`, and every other chunk says `usage: null` (OpenAI's schema).
 */
function chatCompletionChunks(
  head: Record<string, unknown>,
  content: string,
  usage: Record<string, number>,
  includeUsage: boolean,
): unknown[] {
  const chunk = (delta: Record<string, unknown>, finishReason: string | null) => ({
    ...head,
    object: 'chat.completion.chunk',
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
    ...(includeUsage ? { usage: null } : {}),
  });
  const chunks: unknown[] = [chunk({ role: 'assistant', content: '' }, null), chunk({ content }, null), chunk({}, 'stop')];
  if (includeUsage) chunks.push({ ...head, object: 'chat.completion.chunk', choices: [], usage });
  return chunks;
}

/**
 * Chat-based rerank (an LLM-style rerank client's wire format): `POST /v1/chat/completions` whose user message content is the JSON
 * string `{query, candidates, top_k, prompt, batch_size}`; the reply is a chat completion whose
 * `choices[0].message.content` is the JSON string `{"results":[{"index","score"(,"document")}]}`.
 */
export const chatDialect: Dialect = {
  name: 'chat',
  paths: ['/v1/chat/completions', '/chat/completions'],
  example: { messages: [{ role: 'user', content: JSON.stringify({ query: EXAMPLE_QUERY, candidates: EXAMPLE_DOCUMENTS, top_k: 2 }) }] },
  requestSchema: chatRequestFields.schema,
  responseSchema: chatResponseSchema,
  errorSchema: openAiErrorSchema,
  paramNames: () => PARAM_NAMES,

  parse(body: unknown): RerankRequest {
    const { inputs, fields } = chatRequestFields.read(body);
    const stream = inputs.stream === true;
    const { content, param } = inputs.messages;
    const parsed = parseJsonText(content, param);
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      throw invalidRequest(notARerankRequest(param), param);
    }
    const data = parsed as JsonObject;
    if (typeof chatContentFields.sent(data, 'query') !== 'string' || !Array.isArray(chatContentFields.sent(data, 'documents'))) {
      throw invalidRequest(notARerankRequest(param), param);
    }
    const rerank = chatContentFields.read(data);
    return toRerankRequest({
      ...fields,
      ...rerank.fields,
      // The seed's client never sends include_docs and drops results without a document when its caller asked for
      // them, so documents are on unless the content turns them off.
      returnDocuments: rerank.inputs.includeDocs ?? rerank.inputs.returnDocuments ?? true,
      ...(stream ? { echo: { stream, includeUsage: inputs.includeUsage === true } } : {}),
    });
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
    // logprobs and message.refusal are required (nullable) in OpenAI's schema: strict clients reject a reply without them.
    const body = {
      ...head,
      object: 'chat.completion',
      choices: [{ index: 0, message: { role: 'assistant', content, refusal: null }, logprobs: null, finish_reason: 'stop' }],
      usage,
    };
    if (request?.echo?.['stream'] !== true) return { status: 200, body };
    return { status: 200, body, events: chatCompletionChunks(head, content, usage, request.echo['includeUsage'] === true) };
  },

  formatError: formatOpenAiError,
};
