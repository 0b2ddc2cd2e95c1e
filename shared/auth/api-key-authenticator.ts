import type { ApiKeyLimits, ApiKeyRecord } from './api-key-record.js';
import type { ApiKeyStore } from './api-key-store.js';
import type { Caller } from './caller.js';
import { CredentialRefusedError } from './credential-refused-error.js';
import { absentKeyProblem, presentedKey } from './presented-key.js';
import type { RateLimiter } from './rate-limiter.js';
import { RateLimitedError } from './rate-limited-error.js';

/** A client key's caller: its effective job limit (the key's own, else the default), name and rate budget. */
export interface KeyCaller extends Caller {
  readonly name: string;
  /** Requests left in this minute, when rate limited (for X-RateLimit-Remaining). */
  readonly remaining: number | undefined;
}

export interface ApiKeyAuthenticatorOptions {
  readonly store: ApiKeyStore;
  readonly rateLimiter?: RateLimiter;
  /** Applied to keys that carry no limits of their own; undefined = unlimited. */
  readonly defaults?: ApiKeyLimits;
  /** Epoch seconds. */
  readonly clock?: () => number;
}

/**
 * The key an Authorization header presents (presentedKey: Bearer, or a SigV4 access key id) -> the key's record (via the store, typically a CachedApiKeyStore) -> one unit
 * of its per-minute rate. Throws CredentialRefusedError (a 401) or RateLimitedError; error texts never hold the key.
 */
export class ApiKeyAuthenticator {
  readonly #store: ApiKeyStore;
  readonly #rateLimiter: RateLimiter | undefined;
  readonly #defaults: ApiKeyLimits;
  readonly #clock: () => number;

  constructor(options: ApiKeyAuthenticatorOptions) {
    this.#store = options.store;
    this.#rateLimiter = options.rateLimiter;
    this.#defaults = options.defaults ?? {};
    this.#clock = options.clock ?? (() => Date.now() / 1000);
  }

  async authenticate(authorization: string | undefined): Promise<KeyCaller> {
    const key = presentedKey(authorization);
    if (key === undefined) throw new CredentialRefusedError(absentKeyProblem(authorization));
    const record = await this.#store.findByKey(key);
    if (record === undefined) throw new CredentialRefusedError({ kind: 'unknown' });
    const remaining = await this.#consume(record);
    return {
      keyId: record.keyId,
      name: record.name,
      maxConcurrentJobs: record.maxConcurrentJobs ?? this.#defaults.maxConcurrentJobs,
      ...(record.maxQueuedPairs === undefined ? {} : { maxQueuedPairs: record.maxQueuedPairs }),
      remaining,
    };
  }

  /** Whether the key is a known one, without spending the caller's rate limit (the request is counted later). */
  async verify(authorization: string | undefined): Promise<void> {
    const key = presentedKey(authorization);
    if (key === undefined) throw new CredentialRefusedError(absentKeyProblem(authorization));
    if ((await this.#store.findByKey(key)) === undefined) throw new CredentialRefusedError({ kind: 'unknown' });
  }

  async #consume(record: ApiKeyRecord): Promise<number | undefined> {
    const limit = record.rateLimitPerMinute ?? this.#defaults.rateLimitPerMinute;
    if (limit === undefined || this.#rateLimiter === undefined) return undefined;
    const decision = await this.#rateLimiter.consume(record.keyId, limit, this.#clock());
    if (!decision.allowed) {
      throw new RateLimitedError(
        `rate limit of ${limit} requests per minute exceeded; retry in ${decision.retryAfterSeconds} s`,
        decision.retryAfterSeconds,
      );
    }
    return decision.remaining;
  }
}
