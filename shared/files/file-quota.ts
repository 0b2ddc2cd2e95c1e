import { randomBytes } from 'node:crypto';
import { RateLimitedError } from '../auth/rate-limited-error.js';
import { QuotaExceededError, type QuotaAmounts, type QuotaHold, type QuotaLedger } from '../quota/quota-ledger.js';
import type { FileLimits } from './file-limits.js';
import type { FileRecord } from './file-store.js';

/**
 * How files and uploads sit on the per-key ledger. Every stored file (an upload's parts included) holds `file:<id>`:
 * one file and its bytes. A pending upload holds `upload:<id>`: one pending upload, and the file and bytes it
 * announced, taken when it is created, so its parts and its completion never find the quota full.
 */
export const fileHoldId = (fileId: string): string => `file:${fileId}`;
export const uploadHoldId = (uploadId: string): string => `upload:${uploadId}`;
/** Objects derived from a file (a corpus' stored shards) each hold `derived:<file id>:<name>`; they go with the file. */
export const derivedHoldPrefix = (fileId: string): string => `derived:${fileId}:`;

/** What a stored file holds: itself and its bytes, until it is deleted or its retention ends. */
export const fileHold = (record: Pick<FileRecord, 'id' | 'bytes' | 'expiresAt'>): QuotaHold => ({
  id: fileHoldId(record.id),
  amounts: { files: 1, stored_bytes: record.bytes },
  ...(record.expiresAt === undefined ? {} : { expiresAt: record.expiresAt }),
});

/**
 * What an object derived from a file holds: its bytes of the key's stored bytes, until the file goes (or expires). Only
 * an existing file's: the hold expires with it, and is given back with it.
 */
export const derivedHold = (file: Pick<FileRecord, 'id' | 'expiresAt'>, name: string, bytes: number): QuotaHold => ({
  id: `${derivedHoldPrefix(file.id)}${name}`,
  amounts: { stored_bytes: bytes },
  ...(file.expiresAt === undefined ? {} : { expiresAt: file.expiresAt }),
});

/** The ledger's limits for the Files and Uploads APIs. */
const fileQuotaLimits = (limits: FileLimits): QuotaAmounts => ({
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
function quotaRefusal(error: QuotaExceededError): RateLimitedError {
  const what = error.counter.replace('_', ' ');
  return new RateLimitedError(
    `this key holds ${error.used} ${what} (at most ${error.limit}); ${error.requested} more would pass it: ${REMEDY[error.counter] ?? 'wait for some to end'}`,
    QUOTA_RETRY_SECONDS,
    { cause: error },
  );
}

/** A hold taken before a file exists (its id is the store's); it becomes the file's once the file is closed. */
const newWritingHoldId = (): string => `writing:${randomBytes(12).toString('hex')}`;
/** How long a tentative hold outlives a process that died mid-write before the ledger may release it. */
const WRITING_HOLD_SECONDS = 3_600;

/** The Files and Uploads APIs' side of the ledger: their limits, their refusals, and storing a file under a hold. */
export class FileQuota {
  readonly #ledger: QuotaLedger;
  readonly #limits: QuotaAmounts;
  readonly #now: () => number;

  constructor(ledger: QuotaLedger, limits: FileLimits, now: () => number) {
    this.#ledger = ledger;
    this.#limits = fileQuotaLimits(limits);
    this.#now = now;
  }

  /**
   * Takes `hold` within the key's limits (a 429 otherwise). When it does not fit, what expired by itself (files past
   * their retention, uploads past their hour) is given back first and the reservation tried once more.
   */
  async reserve(ownerKeyId: string, hold: QuotaHold): Promise<void> {
    for (let attempt = 0; ; attempt += 1) {
      try {
        await this.#ledger.reserve(ownerKeyId, hold, this.#limits);
        return;
      } catch (error) {
        if (!(error instanceof QuotaExceededError)) throw error;
        if (attempt > 0 || (await this.#ledger.releaseExpired(ownerKeyId, this.#now())) === 0) throw quotaRefusal(error);
      }
    }
  }

  release(ownerKeyId: string, holdId: string): Promise<boolean> {
    return this.#ledger.release(ownerKeyId, holdId);
  }

  /** Gives back every hold under `idPrefix` (a deleted file's derived objects). */
  releaseWhere(ownerKeyId: string, idPrefix: string): Promise<number> {
    return this.#ledger.releaseWhere(ownerKeyId, idPrefix);
  }

  /** Hold `fromId` becomes `to`; if it is gone (released as expired meanwhile), `to` is reserved afresh. */
  async transfer(ownerKeyId: string, fromId: string, to: QuotaHold): Promise<void> {
    if (!(await this.#ledger.replace(ownerKeyId, fromId, to, this.#limits))) await this.reserve(ownerKeyId, to);
  }

  /**
   * Reserves `amounts` under a tentative hold, stores the file, then makes the hold the file's (`holdOf`); a failed
   * write gives the reservation back, and a file that cannot be held is discarded. A process that dies mid-write
   * leaves the tentative hold to expire.
   */
  async storeHeld(
    ownerKeyId: string,
    amounts: QuotaAmounts,
    holdOf: (record: FileRecord) => QuotaHold,
    discard: (fileId: string) => Promise<unknown>,
    store: () => Promise<FileRecord>,
  ): Promise<FileRecord> {
    const tentative: QuotaHold = { id: newWritingHoldId(), amounts, expiresAt: this.#now() + WRITING_HOLD_SECONDS };
    await this.reserve(ownerKeyId, tentative);
    let record: FileRecord;
    try {
      record = await store();
    } catch (error) {
      await this.#ledger.release(ownerKeyId, tentative.id);
      throw error;
    }
    // The file's own hold never exceeds the tentative one (the writer stopped it at the reserved size).
    try {
      await this.transfer(ownerKeyId, tentative.id, holdOf(record));
    } catch (error) {
      await discard(record.id);
      throw error;
    }
    return record;
  }
}
