import { RateLimitedError } from '../auth/rate-limited-error.js';
import type { QuotaAmounts, QuotaExceededError, QuotaHold } from '../quota/quota-ledger.js';
import type { FileLimits } from './file-limits.js';
import type { FileRecord } from './file-store.js';

/**
 * How files and uploads sit on the per-key ledger. Every stored file (an upload's parts included) holds `file:<id>`:
 * one file and its bytes. A pending upload holds `upload:<id>`: one pending upload, and the file and bytes it
 * announced, taken when it is created, so its parts and its completion never find the quota full.
 */
export const fileHoldId = (fileId: string): string => `file:${fileId}`;
export const uploadHoldId = (uploadId: string): string => `upload:${uploadId}`;

/** What a stored file holds: itself and its bytes, until it is deleted or its retention ends. */
export const fileHold = (record: Pick<FileRecord, 'id' | 'bytes' | 'expiresAt'>): QuotaHold => ({
  id: fileHoldId(record.id),
  amounts: { files: 1, stored_bytes: record.bytes },
  ...(record.expiresAt === undefined ? {} : { expiresAt: record.expiresAt }),
});

/** The ledger's limits for the Files and Uploads APIs. */
export const fileQuotaLimits = (limits: FileLimits): QuotaAmounts => ({
  files: limits.maxFilesPerKey,
  stored_bytes: limits.maxStoredBytesPerKey,
  pending_uploads: limits.maxPendingUploads,
});

/** Quota refusals say when to retry: a file is freed by deleting it, so a minute is only a pace. */
const QUOTA_RETRY_SECONDS = 60;

const REMEDY: Record<string, string> = {
  files: 'delete some files first',
  stored_bytes: 'delete some files first',
  pending_uploads: 'complete or cancel one',
};

/** A refused reservation as the API's 429, naming the bound and what frees it. */
export function quotaRefusal(error: QuotaExceededError): RateLimitedError {
  const what = error.counter.replace('_', ' ');
  return new RateLimitedError(
    `this key holds ${error.used} ${what} (at most ${error.limit}); ${error.requested} more would pass it: ${REMEDY[error.counter] ?? 'wait for some to end'}`,
    QUOTA_RETRY_SECONDS,
    { cause: error },
  );
}
