import { joinUrl, urlPath } from '../base-url.js';
import { RerankApiError, RerankResponseFormatError } from '../rerank-client-errors.js';
import type { RerankMode } from '../rerank-mode.js';
import { readResultItems } from '../read-result-items.js';
import { isReplyObject, readUsage, type ReplyObject } from '../reply-fields.js';

/** `choices[0].message.content` as text; OpenAI-style `[{type:"text", text}]` parts are joined. */
function messageContent(body: ReplyObject): unknown {
  const choice: unknown = Array.isArray(body['choices']) ? body['choices'][0] : undefined;
  const message = isReplyObject(choice) ? choice['message'] : undefined;
  const content = isReplyObject(message) ? message['content'] : undefined;
  if (Array.isArray(content)) {
    return content.map((part: unknown) => (isReplyObject(part) && typeof part['text'] === 'string' ? part['text'] : '')).join('');
  }
  return content;
}

/** LLM-backed rerankers sometimes wrap the JSON in a Markdown code fence. */
const unfence = (text: string): string => /^```[\w-]*\s*\n?([\s\S]*?)\n?```$/.exec(text)?.[1] ?? text;

/**
 * Chat-based rerank (`POST /chat/completions`): the request rides as a JSON string in the user message; the reply's
 * message content is one of four formats - `{"results":[...]}`, `{"data":[...]}`, `[["doc", score]]`,
 * `[[index, score]]` - or `"Error: ..."`, which becomes a RerankApiError.
 */
export const chatMode: RerankMode = {
  name: 'chat',

  endpoint: (baseUrl) => (urlPath(baseUrl).endsWith('/chat/completions') ? baseUrl : joinUrl(baseUrl, 'chat/completions')),

  buildBody: (request) => ({
    ...(request.model !== undefined ? { model: request.model } : {}),
    messages: [
      {
        role: 'user',
        content: JSON.stringify({
          query: request.query,
          candidates: request.documents,
          ...(request.topK !== undefined ? { top_k: request.topK } : {}),
          ...(request.includeDocs ? { include_docs: true } : {}),
          ...(request.prompt !== undefined ? { prompt: request.prompt } : {}),
          ...(request.batchSize !== undefined ? { batch_size: request.batchSize } : {}),
          ...(request.rawScores !== undefined ? { raw_scores: request.rawScores } : {}),
          ...(request.threshold !== undefined ? { rerank_threshold: request.threshold } : {}),
        }),
      },
    ],
    stream: false,
  }),

  parseReply(body, documents) {
    if (!isReplyObject(body)) throw new RerankResponseFormatError('reply is not a JSON object', body);
    const content = messageContent(body);
    let parsed: unknown = content;
    if (typeof content === 'string') {
      const text = unfence(content.trim());
      const error = /^error\s*:\s*([\s\S]*)$/i.exec(text);
      if (error) throw new RerankApiError(error[1] || text, { status: 200, body });
      try {
        parsed = JSON.parse(text) as unknown;
      } catch (cause) {
        throw new RerankResponseFormatError(`choices[0].message.content is not JSON: ${JSON.stringify(text.slice(0, 120))}`, body, {
          cause,
        });
      }
    } else if (content === undefined || content === null) {
      throw new RerankResponseFormatError('reply has no choices[0].message.content', body);
    }
    const items = Array.isArray(parsed) ? parsed : isReplyObject(parsed) ? (parsed['results'] ?? parsed['data']) : undefined;
    return { candidates: readResultItems(items, documents, body), usage: readUsage(body['usage']) };
  },
};
