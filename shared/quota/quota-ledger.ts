/**
 * One ledger per key for every bound a caller can fill: each counter is a running total of what the key holds now.
 * Files and uploads use `files`, `stored_bytes` and `pending_uploads`; the async engine puts its running work on the
 * same ledger: `running_batches` (a hold per batch), `running_jobs` (a hold per job), each kept result line's bytes, and
 * `queued_pairs` (documents x query lines a batch has queued, one growing hold per batch).
 */
export type QuotaCounter =
  | 'files'
  | 'stored_bytes'
  | 'pending_uploads'
  | 'running_batches'
  | 'running_jobs'
  | 'output_bytes'
  | 'queued_pairs';

export const QUOTA_COUNTERS: readonly QuotaCounter[] = [
  'files',
  'stored_bytes',
  'pending_uploads',
  'running_batches',
  'running_jobs',
  'output_bytes',
  'queued_pairs',
];

/** Amounts per counter (absent = 0). As limits: absent = no bound on that counter. */
export type QuotaAmounts = Partial<Readonly<Record<QuotaCounter, number>>>;

/**
 * What one thing holds on the ledger (a stored file, a pending upload, a running batch). The id makes a hold
 * exactly-once: taking an id already held changes nothing, and releasing it twice gives back once, so a retried
 * request or a redelivered task never counts twice.
 */
export interface QuotaHold {
  /** Unique within the key, named for what it stands for: `file:<id>`, `upload:<id>`, `batch:<id>`. */
  readonly id: string;
  readonly amounts: QuotaAmounts;
  /** Epoch seconds after which the thing is gone by itself (a file's retention, an upload's hour). */
  readonly expiresAt?: number;
}

/** A reservation refused: taking it would carry `counter` past `limit`. */
export class QuotaExceededError extends Error {
  constructor(
    readonly counter: QuotaCounter,
    readonly limit: number,
    readonly used: number,
    readonly requested: number,
  ) {
    super(`the key holds ${used} of ${limit} ${counter.replace('_', ' ')}; ${requested} more would pass it`);
    this.name = 'QuotaExceededError';
  }
}

/**
 * The port. Every change is atomic across the counters it names (a transaction with conditions on DynamoDB, one
 * synchronous step in memory): two requests racing for the last unit cannot both get it.
 */
export interface QuotaLedger {
  /**
   * Takes `hold.amounts` if no counter that grows passes its limit; all or nothing (QuotaExceededError names the
   * first counter over). False, and nothing changed, when `hold.id` is already held.
   */
  reserve(ownerKeyId: string, hold: QuotaHold, limits: QuotaAmounts): Promise<boolean>;
  /**
   * Swaps hold `fromId` for `to` in one step, charging only the difference (checked against `limits` where it
   * grows): a tentative hold becomes the file's, an upload's becomes its file's, a batch's output hold grows.
   * False, and nothing changed, when `fromId` is not held or `to.id` already is.
   */
  replace(ownerKeyId: string, fromId: string, to: QuotaHold, limits: QuotaAmounts): Promise<boolean>;
  /** Gives back what hold `holdId` took; false when it is not held (released before, or never taken). */
  release(ownerKeyId: string, holdId: string): Promise<boolean>;
  /** Releases the key's holds whose `expiresAt` is at or before `now` (what expired by itself); how many. */
  releaseExpired(ownerKeyId: string, now: number): Promise<number>;
  /** Releases the key's holds whose id starts with `idPrefix` (what a deleted file's derived objects held); how many. */
  releaseWhere(ownerKeyId: string, idPrefix: string): Promise<number>;
  /** The key's counters now (absent counters are 0). */
  usage(ownerKeyId: string): Promise<Record<QuotaCounter, number>>;
}
