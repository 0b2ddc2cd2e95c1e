import { apiKeyDigest } from './api-key.js';
import type { ApiKeyLimits, ApiKeyRecord, CreatedApiKey } from './api-key-record.js';
import type { ApiKeyStore } from './api-key-store.js';

export interface CachedApiKeyStoreOptions {
  /** How long a found key is trusted without asking the store: also the longest a revocation takes to bite. Default 60 s. */
  readonly ttlMs?: number;
  /** How long an unknown key stays unknown: spares the table a read per bad request. Default 10 s. */
  readonly negativeTtlMs?: number;
  /** Oldest entries are dropped past this. Default 10,000. */
  readonly maxEntries?: number;
  /** Epoch milliseconds. */
  readonly clock?: () => number;
}

interface Entry {
  readonly record: ApiKeyRecord | undefined;
  readonly expiresAtMs: number;
}

/**
 * An ApiKeyStore decorator for the API function: `findByKey` answers from a per-container cache keyed by the
 * key's digest (never the key), and concurrent lookups of one key share a single store read.
 * `revoke` through this instance evicts at once; revocations made elsewhere (the CLI) take up to `ttlMs`.
 */
export class CachedApiKeyStore implements ApiKeyStore {
  readonly #inner: ApiKeyStore;
  readonly #ttlMs: number;
  readonly #negativeTtlMs: number;
  readonly #maxEntries: number;
  readonly #clock: () => number;
  readonly #entries = new Map<string, Entry>();
  readonly #inFlight = new Map<string, Promise<ApiKeyRecord | undefined>>();

  constructor(inner: ApiKeyStore, options: CachedApiKeyStoreOptions = {}) {
    this.#inner = inner;
    this.#ttlMs = options.ttlMs ?? 60_000;
    this.#negativeTtlMs = options.negativeTtlMs ?? 10_000;
    this.#maxEntries = options.maxEntries ?? 10_000;
    this.#clock = options.clock ?? Date.now;
  }

  create(name: string, options?: ApiKeyLimits): Promise<CreatedApiKey> {
    return this.#inner.create(name, options);
  }

  async findByKey(key: string): Promise<ApiKeyRecord | undefined> {
    const digest = apiKeyDigest(key);
    const cached = this.#entries.get(digest);
    if (cached !== undefined && cached.expiresAtMs > this.#clock()) return cached.record;
    const pending = this.#inFlight.get(digest);
    if (pending !== undefined) return pending;
    const lookup = this.#inner
      .findByKey(key)
      .then((record) => {
        this.#remember(digest, record);
        return record;
      })
      .finally(() => this.#inFlight.delete(digest));
    this.#inFlight.set(digest, lookup);
    return lookup;
  }

  list(): Promise<ApiKeyRecord[]> {
    return this.#inner.list();
  }

  async revoke(keyId: string): Promise<boolean> {
    const revoked = await this.#inner.revoke(keyId);
    for (const [digest, entry] of this.#entries) if (entry.record?.keyId === keyId) this.#entries.delete(digest);
    return revoked;
  }

  #remember(digest: string, record: ApiKeyRecord | undefined): void {
    this.#entries.delete(digest);
    const ttl = record === undefined ? this.#negativeTtlMs : this.#ttlMs;
    if (ttl <= 0) return;
    this.#entries.set(digest, { record, expiresAtMs: this.#clock() + ttl });
    // Map iteration is insertion order, so the first keys are the oldest.
    for (const oldest of this.#entries.keys()) {
      if (this.#entries.size <= this.#maxEntries) break;
      this.#entries.delete(oldest);
    }
  }
}
