import { describe, expect, it } from 'vitest';
import { API_KEY_PATTERN, apiKeyDigest, apiKeyPrefix, generateApiKey } from '../../../shared/auth/api-key.js';
import { mintApiKey } from '../../../shared/auth/mint-api-key.js';
import { keyIdOf } from '../../../shared/auth/api-key.js';

describe('generateApiKey', () => {
  it('makes rk- plus 40 base62 characters, all distinct', () => {
    const keys = Array.from({ length: 500 }, generateApiKey);
    for (const key of keys) expect(key).toMatch(API_KEY_PATTERN);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('uses the whole base62 alphabet', () => {
    const seen = new Set(Array.from({ length: 200 }, generateApiKey).flatMap((k) => [...k.slice(3)]));
    expect(seen.size).toBe(62);
  });
});

describe('mintApiKey', () => {
  it('derives id, prefix and digest from the key, and keeps only given limits', () => {
    const { key, digest, record } = mintApiKey('svc', { maxConcurrentJobs: 4 }, 1_700_000_000);
    expect(digest).toBe(apiKeyDigest(key));
    expect(digest).toMatch(/^[0-9a-f]{64}$/);
    expect(record).toEqual({ keyId: keyIdOf(key), name: 'svc', prefix: apiKeyPrefix(key), createdAt: 1_700_000_000, maxConcurrentJobs: 4 });
    expect(record.keyId).toBe(digest.slice(0, 16));
    expect(Object.keys(record)).not.toContain('rateLimitPerMinute');
  });

  it('refuses names that are blank or too long', () => {
    expect(() => mintApiKey('', {}, 0)).toThrow(/name/);
    expect(() => mintApiKey('x'.repeat(201), {}, 0)).toThrow(/name/);
  });
});
