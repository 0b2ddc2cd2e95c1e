import { createHash, randomBytes } from 'node:crypto';

/** Every key starts with this, so leaked keys are recognisable (secret scanners, logs reviews). */
const API_KEY_PREFIX = 'rk-';
const BODY_LENGTH = 40;
const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** Bytes at or above this would bias the modulo; 248 = 4 x 62. */
const UNBIASED_LIMIT = 248;

/** `rk-` + 40 base62 characters (~238 bits of entropy). */
export const API_KEY_PATTERN = /^rk-[0-9A-Za-z]{40}$/;

/** A new random API key: base62 by rejection sampling over crypto.randomBytes, so every character is uniform. */
export function generateApiKey(): string {
  let body = '';
  while (body.length < BODY_LENGTH) {
    for (const byte of randomBytes(BODY_LENGTH)) {
      if (byte < UNBIASED_LIMIT && body.length < BODY_LENGTH) body += ALPHABET[byte % 62];
    }
  }
  return API_KEY_PREFIX + body;
}

/**
 * What stores keep instead of the key: its SHA-256 as hex. A salt or slow hash buys nothing here, since the
 * keys are 238-bit random strings that no dictionary or brute force reaches.
 */
export const apiKeyDigest = (key: string): string => createHash('sha256').update(key, 'utf8').digest('hex');

/** The id under which a key is known without revealing it (logs, job ownership): a prefix of its digest. */
export const keyIdOf = (key: string): string => apiKeyDigest(key).slice(0, 16);

/** The first 6 characters, which humans use to tell keys apart in listings; not enough to guess the rest. */
export const apiKeyPrefix = (key: string): string => key.slice(0, 6);
