import type { RerankUsage } from './rerank-result.js';

/** Readers for the loosely typed fields of rerank replies; each returns undefined rather than guessing. */

export type ReplyObject = Record<string, unknown>;

export const isReplyObject = (value: unknown): value is ReplyObject => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A finite number, or a numeric string some servers send (`"0.95"`). */
export function readScore(value: unknown): number | undefined {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof n === 'number' && Number.isFinite(n) ? n : undefined;
}

export function readIndex(value: unknown): number | undefined {
  const n = readScore(value);
  return n !== undefined && Number.isInteger(n) && n >= 0 ? n : undefined;
}

/** A document as replies carry it: a string, `{text}` (OpenAI, DashScope) or `{content}`. */
export function readDocumentText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (isReplyObject(value)) {
    if (typeof value['text'] === 'string') return value['text'];
    if (typeof value['content'] === 'string') return value['content'];
  }
  return undefined;
}

const count = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);

/** OpenAI chat (`prompt_tokens`/`completion_tokens`), Cohere-ish (`input_tokens`/`output_tokens`) and `total_tokens`. */
export function readUsage(value: unknown): RerankUsage {
  if (!isReplyObject(value)) return {};
  const inputTokens = count(value['prompt_tokens']) ?? count(value['input_tokens']);
  const outputTokens = count(value['completion_tokens']) ?? count(value['output_tokens']);
  const totalTokens =
    count(value['total_tokens']) ??
    (inputTokens !== undefined || outputTokens !== undefined ? (inputTokens ?? 0) + (outputTokens ?? 0) : undefined);
  return {
    ...(inputTokens !== undefined ? { inputTokens } : {}),
    ...(outputTokens !== undefined ? { outputTokens } : {}),
    ...(totalTokens !== undefined ? { totalTokens } : {}),
  };
}
