import { invalidRequest } from '../../core/rerank-error.js';
import { expectObject } from '../wire-fields.js';

/** The text of the user message's content, and how the client spells where it is (`messages[1].content`). */
export interface UserContent {
  readonly content: string;
  readonly param: string;
}

/**
 * The rerank request rides in the first user message. OpenAI clients may send content as a string
 * or as an array of `{type:"text", text}` parts; both are accepted, nothing else is guessed at.
 */
export function readUserContent(messages: unknown, messagesParam: string): UserContent {
  if (!Array.isArray(messages) || messages.length === 0) {
    throw invalidRequest(`${messagesParam} must be a non-empty array of chat messages`, messagesParam);
  }
  const index = messages.findIndex((m) => typeof m === 'object' && m !== null && (m as Record<string, unknown>)['role'] === 'user');
  if (index < 0) throw invalidRequest(`${messagesParam} must contain a message with role "user"`, messagesParam);
  const message = expectObject(messages[index], `${messagesParam}[${index}]`);
  const content = message['content'];
  const param = `${messagesParam}[${index}].content`;
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
