import { createHash, timingSafeEqual } from 'node:crypto';

export interface Caller {
  /** A stable, non-secret id of the key (hash prefix): what logs and job ownership use. */
  readonly keyId: string;
}

const digest = (key: string): Buffer => createHash('sha256').update(key, 'utf8').digest();

/** The id under which a key is known without revealing it. */
export const keyIdOf = (key: string): string => digest(key).toString('hex').slice(0, 16);

/**
 * Operator keys from configuration: `Authorization: Bearer <key>` checked against them as digests,
 * in constant time. Client keys live in the key store (shared/auth).
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
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
    if (!match || !this.enabled) return undefined;
    const presented = digest(match[1] as string);
    const ok = this.#digests.reduce((found, d) => timingSafeEqual(d, presented) || found, false);
    return ok ? { keyId: keyIdOf(match[1] as string) } : undefined;
  }
}
