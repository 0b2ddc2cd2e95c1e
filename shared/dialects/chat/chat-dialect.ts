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

const notARerankRequest = (param: string): string =>
  `${param} must be a JSON object string with "query" (string) and "candidates" (array), ` +
  'e.g. {"query": "...", "candidates": ["...", "..."], "top_k": 3}';

const PARAM_NAMES = chatContentFields.paramNames();

/**
 * Chat-based rerank (seed 001): `POST /v1/chat/completions` whose user message content is the JSON
 * string `{query, candidates, top_k, prompt, batch_size}`; the reply is a chat completion whose
 * `choices[0].message.content` is the JSON string `{"results":[{"index","score"(,"document")}]}`.
 */
export const chatDialect: Dialect = {
  name: 'chat',
  requestSchema: chatRequestFields.schema,
  responseSchema: chatResponseSchema,
  errorSchema: openAiErrorSchema,
  paramNames: () => PARAM_NAMES,

  parse(body: unknown): RerankRequest {
    const { inputs, fields } = chatRequestFields.read(body);
    if (inputs.stream === true) {
      throw invalidRequest('stream=true is not supported: rerank replies are a single chat completion', chatRequestFields.param('stream'));
    }
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
      returnDocuments: rerank.inputs.includeDocs ?? rerank.inputs.returnDocuments ?? false,
    });
  },

  formatOutcome(outcome: RerankOutcome, context: DialectContext): DialectResponse {
    const content = JSON.stringify({
      results: outcome.results.map((r) => ({
        index: r.index,
        score: r.score,
        ...(r.document ? { document: r.document.text } : {}),
      })),
    });
    return {
      status: 200,
      body: {
        id: `chatcmpl-${outcome.id}`,
        object: 'chat.completion',
        created: context.now,
        model: outcome.model,
        choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
        usage: { prompt_tokens: outcome.usage.totalTokens, completion_tokens: 0, total_tokens: outcome.usage.totalTokens },
      },
    };
  },

  formatError: formatOpenAiError,
};
