import { invalidRequest } from '../../core/rerank-error.js';
import { expectObject } from '../wire-fields.js';

/**
 * The rerank request rides in the first user message. OpenAI clients may send content as a string
 * or as an array of `{type:"text", text}` parts; both are accepted, nothing else is guessed at.
 */
export function readUserContent(messages: unknown): { content: string; param: string } {
  if (!Array.isArray(messages) || messages.length === 0) {
    throw invalidRequest('messages must be a non-empty array of chat messages', 'messages');
  }
  const index = messages.findIndex((m) => typeof m === 'object' && m !== null && (m as Record<string, unknown>)['role'] === 'user');
  if (index < 0) throw invalidRequest('messages must contain a message with role "user"', 'messages');
  const message = expectObject(messages[index], `messages[${index}]`);
  const content = message['content'];
  const param = `messages[${index}].content`;
  if (typeof content === 'string') return { content, param };
  if (Array.isArray(content)) {
    const texts = content.map((part: unknown) =>
      typeof part === 'object' && part !== null && (part as Record<string, unknown>)['type'] === 'text'
        ? (part as Record<string, unknown>)['text']
        : undefined,
    );
    if (texts.length > 0 && texts.every((t): t is string => typeof t === 'string')) return { content: texts.join(''), param };
  }
  throw invalidRequest(`${param} must be a string`, param);
}
