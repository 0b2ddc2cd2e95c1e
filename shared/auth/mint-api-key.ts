import { apiKeyDigest, apiKeyPrefix, generateApiKey, keyIdOf } from './api-key.js';
import type { ApiKeyLimits, ApiKeyRecord } from './api-key-record.js';
import { InvalidApiKeyOptionsError } from './api-key-errors.js';

const MAX_KEY_NAME_LENGTH = 200;

export interface MintedApiKey {
  readonly key: string;
  readonly digest: string;
  readonly record: ApiKeyRecord;
}

/** A fresh key and the record every adapter stores for it; validates the name and limits first. */
export function mintApiKey(name: string, limits: ApiKeyLimits, now: number): MintedApiKey {
  const trimmed = name.trim();
  if (trimmed === '' || trimmed.length > MAX_KEY_NAME_LENGTH) {
    throw new InvalidApiKeyOptionsError(`key name must be 1-${MAX_KEY_NAME_LENGTH} characters`);
  }
  checkLimit('rateLimitPerMinute', limits.rateLimitPerMinute);
  checkLimit('maxConcurrentJobs', limits.maxConcurrentJobs);
  checkLimit('maxQueuedPairs', limits.maxQueuedPairs);
  const key = generateApiKey();
  const record: ApiKeyRecord = {
    keyId: keyIdOf(key),
    name: trimmed,
    prefix: apiKeyPrefix(key),
    createdAt: now,
    ...(limits.rateLimitPerMinute === undefined ? {} : { rateLimitPerMinute: limits.rateLimitPerMinute }),
    ...(limits.maxConcurrentJobs === undefined ? {} : { maxConcurrentJobs: limits.maxConcurrentJobs }),
    ...(limits.maxQueuedPairs === undefined ? {} : { maxQueuedPairs: limits.maxQueuedPairs }),
  };
  return { key, digest: apiKeyDigest(key), record };
}

function checkLimit(field: keyof ApiKeyLimits, value: number | undefined): void {
  if (value === undefined) return;
  if (!Number.isSafeInteger(value) || value < 1) throw new InvalidApiKeyOptionsError(`${field} must be a positive integer`);
}
