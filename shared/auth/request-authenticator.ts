import type { ApiKeyAuthenticator } from './api-key-authenticator.js';
import type { BearerAuth } from './bearer-auth.js';
import type { Caller } from './caller.js';
import type { OpenAccess } from './open-access.js';

export interface RequestAuthenticatorOptions {
  /** Operator keys from configuration (RERANK_API_KEYS), checked first, never rate limited. */
  readonly operatorKeys: BearerAuth;
  /** Client keys from the key store (hashed), with their rate limits. */
  readonly clientKeys: ApiKeyAuthenticator;
  /**
   * Local development only: while open, every caller is let in as `anonymous`. Decided at start-up
   * (decideOpenAccess), never from the keys' state. Absent = a key is always required (AWS).
   */
  readonly openAccess?: OpenAccess;
}

/** `Authorization: Bearer <key>` against operator keys, then the key store. */
export class RequestAuthenticator {
  readonly #options: RequestAuthenticatorOptions;

  constructor(options: RequestAuthenticatorOptions) {
    this.#options = options;
  }

  /** Whether callers are let in without a key right now (a local server with no keys; never on AWS). */
  get open(): boolean {
    return this.#options.openAccess?.isOpen() ?? false;
  }

  /** For the start-up banner: whether and why callers need a key. */
  get accessDescription(): string {
    return this.#options.openAccess?.description ?? 'auth: API key required';
  }

  /**
   * Refuses a missing or unknown key without counting the request against its rate limit: the local server asks
   * this before it reads a body, and the API then authenticates (and counts) the request as usual.
   */
  async verify(authorization: string | undefined): Promise<void> {
    const { operatorKeys, clientKeys, openAccess } = this.#options;
    if (openAccess?.isOpen()) return;
    if (operatorKeys.enabled && operatorKeys.match(authorization)) return;
    await clientKeys.verify(authorization);
  }

  async authenticate(authorization: string | undefined): Promise<Caller> {
    const { operatorKeys, clientKeys, openAccess } = this.#options;
    if (openAccess?.isOpen()) return { keyId: 'anonymous' };
    if (operatorKeys.enabled) {
      const operator = operatorKeys.match(authorization);
      if (operator) return operator;
    }
    const client = await clientKeys.authenticate(authorization);
    return {
      keyId: client.keyId,
      ...(client.maxConcurrentJobs === undefined ? {} : { maxConcurrentJobs: client.maxConcurrentJobs }),
      ...(client.maxQueuedPairs === undefined ? {} : { maxQueuedPairs: client.maxQueuedPairs }),
    };
  }
}
