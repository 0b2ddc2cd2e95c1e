import { describe, expect, it } from 'vitest';
import { authorizeRequest } from '../../functions/authorizer/authorize-request.js';
import { InMemoryApiKeyStore } from '../../shared/adapters/memory/in-memory-api-key-store.js';
import type { ApiKeyStore } from '../../shared/auth/api-key-store.js';
import { authorizationOf } from '../../shared/auth/presented-key.js';
import { sigV4Authorization } from '../support/sigv4-authorization.js';

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

  it("lets a live key through as an AWS SDK presents it (SigV4 access key id, signature unchecked) or as Pinecone's Api-Key", async () => {
    const { store, inner } = countingStore();
    const { key, record } = await inner.create('svc');
    const signed = await sigV4Authorization('https://api.example/rerank', '{"queries":[]}', key);
    expect(await authorizeRequest(signed, store)).toEqual({ isAuthorized: true, context: { keyId: record.keyId } });
    // The handler reads the event's (lower-cased) headers through authorizationOf: Api-Key when no Authorization.
    expect(
      await authorizeRequest(
        authorizationOf((name) => ({ 'api-key': key })[name]),
        store,
      ),
    ).toEqual({ isAuthorized: true, context: { keyId: record.keyId } });
    const stranger = await sigV4Authorization('https://api.example/rerank', '{}', `rk-${'C'.repeat(40)}`);
    expect(await authorizeRequest(stranger, store)).toEqual({ isAuthorized: false });
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
    const junk = [
      undefined,
      '',
      'Basic abc',
      'Bearer',
      'Bearer rk-short',
      `Bearer sk-${'a'.repeat(48)}`,
      `Bearer rk-${'!'.repeat(40)}`,
      `Bearer ${'x'.repeat(100_000)}`,
    ];
    for (const header of junk) expect(await authorizeRequest(header, store), String(header).slice(0, 20)).toEqual({ isAuthorized: false });
    expect(lookups()).toBe(0);
  });

  it('propagates a failing store (API Gateway answers 500 and caches no deny for a valid key)', async () => {
    const failing: ApiKeyStore = { ...countingStore().store, findByKey: () => Promise.reject(new Error('ProvisionedThroughputExceeded')) };
    await expect(authorizeRequest(`Bearer rk-${'B'.repeat(40)}`, failing)).rejects.toThrow('ProvisionedThroughputExceeded');
  });
});
