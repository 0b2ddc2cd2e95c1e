import { createHash } from 'node:crypto';
import { RerankError, invalidRequest } from '../core/rerank-error.js';

/** Visible ASCII, 1-255 characters: what payment and AI APIs accept (a UUID is the usual choice). */
const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;

export const IDEMPOTENCY_HEADER = 'idempotency-key';

/**
 * An Idempotency-Key reused with another request (its fingerprint differs): 422, as the IETF Idempotency-Key draft
 * and payment APIs answer it; the first request's work is never replayed for the second one.
 */
export class IdempotencyKeyReusedError extends RerankError {
  constructor(what: 'job' | 'batch') {
    super('unprocessable', `this Idempotency-Key was already used for a different ${what} request; use a new key`, { param: 'Idempotency-Key' });
    this.name = 'IdempotencyKeyReusedError';
  }
}

/** The header's value, or undefined when absent; a malformed value is a 400, never silently ignored. */
export function parseIdempotencyKey(raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  if (!IDEMPOTENCY_KEY.test(raw)) {
    throw invalidRequest('Idempotency-Key must be 1-255 visible ASCII characters (e.g. a UUID)', 'Idempotency-Key');
  }
  return raw;
}

/**
 * The job id a (key owner, Idempotency-Key) pair always maps to: a retry addresses the first job's own item,
 * so every job store (DynamoDB's conditional put, the in-memory map) sees the same job without a second
 * index, and one client's keys can never name another client's job. UUID-shaped (version 8, name-based).
 */
export function idempotentJobId(ownerKeyId: string, idempotencyKey: string): string {
  const hex = createHash('sha256').update(`${ownerKeyId}\n${idempotencyKey}`, 'utf8').digest('hex');
  const variant = ((parseInt(hex[16] as string, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
