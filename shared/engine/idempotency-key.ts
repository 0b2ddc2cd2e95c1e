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
    super('unprocessable', `this Idempotency-Key was already used for a different ${what} request; use a new key`, {
      param: 'Idempotency-Key',
    });
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

/** What an idempotent create stores with its record (a job, a batch) and checks a retry against. */
export interface IdempotentRecord {
  readonly ownerKeyId: string;
  /** The fingerprint of the request that created it, when it came with an Idempotency-Key. */
  readonly requestHash?: string;
}

/**
 * The replay rule of jobs and batches: the record a (key owner, Idempotency-Key) pair names is the first create's
 * when that owner made it (another owner's is none of this caller's business), and a retry must carry the same
 * request (else 422). Undefined when there is nothing to replay.
 */
export function replayOf<R extends IdempotentRecord>(
  record: R | undefined,
  ownerKeyId: string,
  requestHash: string,
  what: 'job' | 'batch',
): R | undefined {
  if (!record || record.ownerKeyId !== ownerKeyId) return undefined;
  if (record.requestHash !== requestHash) throw new IdempotencyKeyReusedError(what);
  return record;
}

/** Both id schemes hash the pair, so a retry addresses the first create's own item: no second index in any store. */
const pairDigest = (salt: string, ownerKeyId: string, idempotencyKey: string): string =>
  createHash('sha256').update(`${salt}${ownerKeyId}\n${idempotencyKey}`, 'utf8').digest('hex');

/**
 * The job id a (key owner, Idempotency-Key) pair always maps to: a retry addresses the first job's own item,
 * so every job store (DynamoDB's conditional put, the in-memory map) sees the same job without a second
 * index, and one client's keys can never name another client's job. UUID-shaped (version 8, name-based).
 */
export function idempotentJobId(ownerKeyId: string, idempotencyKey: string): string {
  const hex = pairDigest('', ownerKeyId, idempotencyKey);
  const variant = ((parseInt(hex[16] as string, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** The batch id a (key owner, Idempotency-Key) pair always maps to (salted, so it never equals a job's digest). */
export function idempotentBatchId(ownerKeyId: string, idempotencyKey: string): string {
  return `batch_${pairDigest('batch\n', ownerKeyId, idempotencyKey).slice(0, 32)}`;
}
