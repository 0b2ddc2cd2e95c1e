/** Per-key limits; absent means the service's default (or unlimited). */
export interface ApiKeyLimits {
  /** Requests per fixed one-minute window. */
  readonly rateLimitPerMinute?: number;
  /** Jobs running at once. */
  readonly maxConcurrentJobs?: number;
  /** Pairs (documents x query lines) its running batches may have queued at once. */
  readonly maxQueuedPairs?: number;
}

/** What a store keeps about a key: never the key itself, only non-secret facts. Times are epoch seconds. */
export interface ApiKeyRecord extends ApiKeyLimits {
  /** Non-secret id, equal to keyIdOf(key): what logs, job ownership, rate and slot counters use. */
  readonly keyId: string;
  readonly name: string;
  /** First 6 characters of the key, for humans. */
  readonly prefix: string;
  readonly createdAt: number;
  readonly revokedAt?: number;
}

export interface CreatedApiKey {
  /** The plaintext key: returned once, never stored. */
  readonly key: string;
  readonly record: ApiKeyRecord;
}

/** Listing order for every adapter: oldest first, ties by keyId. */
export const byCreation = (a: ApiKeyRecord, b: ApiKeyRecord): number =>
  a.createdAt - b.createdAt || (a.keyId < b.keyId ? -1 : a.keyId > b.keyId ? 1 : 0);
