import type { ApiKeyAuthenticator } from './api-key-authenticator.js';
import type { ApiKeyStore } from './api-key-store.js';
import type { BearerAuth } from './bearer-auth.js';
import type { Caller } from './caller.js';

export interface RequestAuthenticatorOptions {
  /** Operator keys from configuration (RERANK_API_KEYS), checked first, never rate limited. */
  readonly operatorKeys: BearerAuth;
  /** Client keys from the key store (hashed), with their rate limits. */
  readonly clientKeys: ApiKeyAuthenticator;
  readonly store: ApiKeyStore;
  /**
   * Local development only: with no operator keys and an empty key store, every caller is let in as
   * `anonymous`. Never set on AWS, where auth fails closed.
   */
  readonly openWhenNoKeys: boolean;
}

/** `Authorization: Bearer <key>` against operator keys, then the key store. */
export class RequestAuthenticator {
  readonly #options: RequestAuthenticatorOptions;

  constructor(options: RequestAuthenticatorOptions) {
    this.#options = options;
  }

  async authenticate(authorization: string | undefined): Promise<Caller> {
    const { operatorKeys, clientKeys, store, openWhenNoKeys } = this.#options;
    if (openWhenNoKeys && !operatorKeys.enabled && (await store.list()).every((k) => k.revokedAt !== undefined)) {
      return { keyId: 'anonymous' };
    }
    if (operatorKeys.enabled) {
      const operator = operatorKeys.match(authorization);
      if (operator) return operator;
    }
    const client = await clientKeys.authenticate(authorization);
    return { keyId: client.keyId, ...(client.maxConcurrentJobs === undefined ? {} : { maxConcurrentJobs: client.maxConcurrentJobs }) };
  }
}
