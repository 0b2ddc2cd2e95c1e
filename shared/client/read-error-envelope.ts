import type { RerankApiErrorDetails } from './rerank-client-errors.js';
import { isReplyObject } from './reply-fields.js';

export interface ErrorEnvelope {
  readonly message: string;
  readonly details: Omit<RerankApiErrorDetails, 'status' | 'requestId' | 'body'> & { readonly requestId?: string };
}

const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value !== '' ? value : typeof value === 'number' ? String(value) : undefined;

/**
 * The server's own words from an error body in any dialect: OpenAI/chat `{"error":{"message","type","param","code"}}`,
 * DashScope `{code, message, request_id}`, and the looser `{"error":"..."}`, `{message}`, `{detail}` of
 * hand-written servers. Undefined when the body is none of these.
 */
export function readErrorEnvelope(body: unknown): ErrorEnvelope | undefined {
  if (!isReplyObject(body)) return undefined;
  const error = body['error'];
  if (isReplyObject(error)) {
    const message = text(error['message']) ?? text(error['code']) ?? 'unknown error';
    const code = text(error['code']);
    const type = text(error['type']);
    const param = text(error['param']);
    return { message, details: { ...(code ? { code } : {}), ...(type ? { type } : {}), ...(param ? { param } : {}) } };
  }
  if (typeof error === 'string' && error !== '') return { message: error, details: {} };
  const message = text(body['message']) ?? text(body['detail']);
  if (message === undefined) return undefined;
  const code = text(body['code']);
  const requestId = text(body['request_id']);
  return { message, details: { ...(code ? { code } : {}), ...(requestId ? { requestId } : {}) } };
}
