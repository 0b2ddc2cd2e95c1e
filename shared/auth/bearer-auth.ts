import { createHash, timingSafeEqual } from 'node:crypto';
import { keyIdOf } from './api-key.js';
import type { Caller } from './caller.js';
import { presentedKey } from './presented-key.js';

const digest = (key: string): Buffer => createHash('sha256').update(key, 'utf8').digest();

/**
 * Operator keys from configuration: `Authorization: Bearer <key>` checked against them as digests,
 * in constant time. Client keys live in the key store.
 */
export class BearerAuth {
  readonly #digests: Buffer[];

  constructor(keys: readonly string[]) {
    this.#digests = keys.map(digest);
  }

  get enabled(): boolean {
    return this.#digests.length > 0;
  }

  /** The caller when the header carries one of these keys; undefined otherwise (another key source may know it). */
  match(authorization: string | undefined): Caller | undefined {
    const key = presentedKey(authorization);
    if (key === undefined || !this.enabled) return undefined;
    const presented = digest(key);
    const ok = this.#digests.reduce((found, d) => timingSafeEqual(d, presented) || found, false);
    return ok ? { keyId: keyIdOf(key) } : undefined;
  }
}
