import { describe, expect, it } from 'vitest';
import { authorizeRequest } from '../../functions/authorizer/authorize-request.js';
import { InMemoryApiKeyStore } from '../../shared/adapters/memory/in-memory-api-key-store.js';
import type { ApiKeyStore } from '../../shared/auth/api-key-store.js';

/** The real in-memory key store, counting the lookups the authorizer makes (each is a GetItem on AWS). */
function countingStore(): { store: ApiKeyStore; inner: InMemoryApiKeyStore; lookups: () => number } {
  const inner = new InMemoryApiKeyStore();
  let lookups = 0;
  const store: ApiKeyStore = {
    create: (name, options) => inner.create(name, options),
    list: () => inner.list(),
    revoke: (keyId) => inner.revoke(keyId),
    findByKey: async (key) => {
      lookups += 1;
      return inner.findByKey(key);
    },
  };
  return { store, inner, lookups: () => lookups };
}

describe('edge authorizer (Lambda REQUEST authorizer of the HTTP API)', () => {
  it('lets a live key through with only its non-secret id as context', async () => {
    const { store, inner } = countingStore();
    const { key, record } = await inner.create('svc');
    const result = await authorizeRequest(`Bearer ${key}`, store);
    expect(result).toEqual({ isAuthorized: true, context: { keyId: record.keyId } });
    expect(JSON.stringify(result)).not.toContain(key);
    expect(await authorizeRequest(`bearer   ${key}  `, store)).toMatchObject({ isAuthorized: true });
  });

  it('refuses unknown and revoked keys after one lookup each', async () => {
    const { store, inner, lookups } = countingStore();
    const { key, record } = await inner.create('svc');
    const stranger = `rk-${'A'.repeat(40)}`;
    expect(await authorizeRequest(`Bearer ${stranger}`, store)).toEqual({ isAuthorized: false });
    await inner.revoke(record.keyId);
    expect(await authorizeRequest(`Bearer ${key}`, store)).toEqual({ isAuthorized: false });
    expect(lookups()).toBe(2);
  });

  it('refuses headers that cannot carry one of our keys without reading the store', async () => {
    const { store, lookups } = countingStore();
    const junk = [undefined, '', 'Basic abc', 'Bearer', 'Bearer rk-short', `Bearer sk-${'a'.repeat(48)}`, `Bearer rk-${'!'.repeat(40)}`, `Bearer ${'x'.repeat(100_000)}`];
    for (const header of junk) expect(await authorizeRequest(header, store), String(header).slice(0, 20)).toEqual({ isAuthorized: false });
    expect(lookups()).toBe(0);
  });

  it('propagates a failing store (API Gateway answers 500 and caches no deny for a valid key)', async () => {
    const failing: ApiKeyStore = { ...countingStore().store, findByKey: () => Promise.reject(new Error('ProvisionedThroughputExceeded')) };
    await expect(authorizeRequest(`Bearer rk-${'B'.repeat(40)}`, failing)).rejects.toThrow('ProvisionedThroughputExceeded');
  });
});
