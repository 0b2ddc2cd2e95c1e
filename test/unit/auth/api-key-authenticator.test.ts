import { describe, expect, it } from 'vitest';
import { InMemoryApiKeyStore } from '../../../shared/adapters/memory/in-memory-api-key-store.js';
import { InMemoryRateLimiter } from '../../../shared/adapters/memory/in-memory-rate-limiter.js';
import { ApiKeyAuthenticator } from '../../../shared/auth/api-key-authenticator.js';
import { RateLimitedError } from '../../../shared/auth/rate-limited-error.js';
import { RerankError } from '../../../shared/core/rerank-error.js';

const rejection = async (promise: Promise<unknown>): Promise<unknown> =>
  promise.then(
    () => undefined,
    (error: unknown) => error,
  );

describe('ApiKeyAuthenticator', () => {
  it('turns a Bearer key into its id and effective limits', async () => {
    const store = new InMemoryApiKeyStore();
    const { key, record } = await store.create('svc', { maxConcurrentJobs: 2 });
    const auth = new ApiKeyAuthenticator({
      store,
      rateLimiter: new InMemoryRateLimiter(),
      defaults: { rateLimitPerMinute: 10, maxConcurrentJobs: 5 },
    });
    expect(await auth.authenticate(`Bearer ${key}`)).toEqual({ keyId: record.keyId, name: 'svc', maxConcurrentJobs: 2, remaining: 9 });
    expect(await auth.authenticate(`bearer   ${key}  `)).toMatchObject({ remaining: 8 });
  });

  it('answers 401 for missing, malformed, unknown and revoked keys, never echoing the key', async () => {
    const store = new InMemoryApiKeyStore();
    const { key, record } = await store.create('svc');
    const auth = new ApiKeyAuthenticator({ store });
    for (const header of [undefined, '', 'Basic abc', `Bearer ${key}x`]) {
      const error = await rejection(auth.authenticate(header));
      expect(error).toBeInstanceOf(RerankError);
      expect((error as RerankError).kind).toBe('unauthorized');
      expect((error as Error).message).not.toContain(key);
    }
    await store.revoke(record.keyId);
    expect(((await rejection(auth.authenticate(`Bearer ${key}`))) as RerankError).kind).toBe('unauthorized');
  });

  it('refuses past the per-minute limit with Retry-After, and a key without limits is unlimited', async () => {
    const store = new InMemoryApiKeyStore();
    const limited = await store.create('limited', { rateLimitPerMinute: 2 });
    const free = await store.create('free');
    let now = 6_000_000_000 + 50;
    const auth = new ApiKeyAuthenticator({ store, rateLimiter: new InMemoryRateLimiter(), clock: () => now });
    await auth.authenticate(`Bearer ${limited.key}`);
    await auth.authenticate(`Bearer ${limited.key}`);
    const error = await rejection(auth.authenticate(`Bearer ${limited.key}`));
    expect(error).toBeInstanceOf(RateLimitedError);
    expect((error as RateLimitedError).kind).toBe('rate_limited');
    expect((error as RateLimitedError).retryAfterSeconds).toBe(10);
    for (let i = 0; i < 50; i += 1) expect((await auth.authenticate(`Bearer ${free.key}`)).remaining).toBeUndefined();
    now += 10;
    expect((await auth.authenticate(`Bearer ${limited.key}`)).remaining).toBe(1);
  });
});
