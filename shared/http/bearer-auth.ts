import { createHash, timingSafeEqual } from 'node:crypto';
import { RerankError } from '../core/rerank-error.js';

export interface Caller {
  /** A stable, non-secret id of the key (hash prefix): what logs and job ownership use. */
  readonly keyId: string;
}

const digest = (key: string): Buffer => createHash('sha256').update(key, 'utf8').digest();

/** The id under which a key is known without revealing it. */
export const keyIdOf = (key: string): string => digest(key).toString('hex').slice(0, 16);

/**
 * Checks `Authorization: Bearer <key>` against the configured keys. With no keys configured auth is
 * off (local development) and every caller is `anonymous`. Keys are compared as digests in constant time.
 */
export class BearerAuth {
  readonly #digests: Buffer[];

  constructor(keys: readonly string[]) {
    this.#digests = keys.map(digest);
  }

  get enabled(): boolean {
    return this.#digests.length > 0;
  }

  authenticate(authorization: string | undefined): Caller {
    if (!this.enabled) return { keyId: 'anonymous' };
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
    if (!match) throw new RerankError('unauthorized', 'missing API key: send Authorization: Bearer <key>');
    const presented = digest(match[1] as string);
    // Check every key so timing does not reveal which one came closest.
    const ok = this.#digests.reduce((found, d) => timingSafeEqual(d, presented) || found, false);
    if (!ok) throw new RerankError('unauthorized', 'invalid API key');
    return { keyId: keyIdOf(match[1] as string) };
  }
}
