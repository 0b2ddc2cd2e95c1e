import { describe, expect, it } from 'vitest';
import { InMemoryApiKeyStore } from '../../../shared/adapters/memory/in-memory-api-key-store.js';
import type { ApiKeyRecord } from '../../../shared/auth/api-key-record.js';
import type { ApiKeyStore } from '../../../shared/auth/api-key-store.js';
import { CachedApiKeyStore } from '../../../shared/auth/cached-api-key-store.js';

/** Counts lookups reaching the inner store. */
function counting(inner: ApiKeyStore): { store: ApiKeyStore; lookups: () => number } {
  let lookups = 0;
  const store: ApiKeyStore = {
    create: (name, options) => inner.create(name, options),
    findByKey: (key) => ((lookups += 1), inner.findByKey(key)),
    list: () => inner.list(),
    revoke: (keyId) => inner.revoke(keyId),
  };
  return { store, lookups: () => lookups };
}

describe('CachedApiKeyStore', () => {
  it('answers a known key from cache until the TTL passes', async () => {
    const inner = new InMemoryApiKeyStore();
    const { key, record } = await inner.create('a');
    const { store, lookups } = counting(inner);
    let now = 0;
    const cached = new CachedApiKeyStore(store, { ttlMs: 1000, clock: () => now });
    expect(await cached.findByKey(key)).toEqual(record);
    now = 999;
    expect(await cached.findByKey(key)).toEqual(record);
    expect(lookups()).toBe(1);
    now = 1000;
    await inner.revoke(record.keyId); // revoked elsewhere (the CLI): bites once the entry expires
    expect(await cached.findByKey(key)).toBeUndefined();
    expect(lookups()).toBe(2);
  });

  it('remembers unknown keys for the shorter negative TTL', async () => {
    const { store, lookups } = counting(new InMemoryApiKeyStore());
    let now = 0;
    const cached = new CachedApiKeyStore(store, { ttlMs: 60_000, negativeTtlMs: 100, clock: () => now });
    expect(await cached.findByKey('rk-nope')).toBeUndefined();
    expect(await cached.findByKey('rk-nope')).toBeUndefined();
    expect(lookups()).toBe(1);
    now = 100;
    await cached.findByKey('rk-nope');
    expect(lookups()).toBe(2);
  });

  it('shares one inner lookup between concurrent callers', async () => {
    const inner = new InMemoryApiKeyStore();
    const { key } = await inner.create('a');
    const { store, lookups } = counting(inner);
    const cached = new CachedApiKeyStore(store);
    const found = await Promise.all(Array.from({ length: 10 }, () => cached.findByKey(key)));
    expect(found.every((r) => r?.name === 'a')).toBe(true);
    expect(lookups()).toBe(1);
  });

  it('revoking through it evicts at once', async () => {
    const cached = new CachedApiKeyStore(new InMemoryApiKeyStore());
    const { key, record } = await cached.create('a');
    expect(await cached.findByKey(key)).toEqual(record);
    expect(await cached.revoke(record.keyId)).toBe(true);
    expect(await cached.findByKey(key)).toBeUndefined();
  });

  it('keeps at most maxEntries, dropping the oldest', async () => {
    const inner = new InMemoryApiKeyStore();
    const created = await Promise.all([inner.create('a'), inner.create('b'), inner.create('c')]);
    const { store, lookups } = counting(inner);
    const cached = new CachedApiKeyStore(store, { maxEntries: 2 });
    for (const c of created) await cached.findByKey(c.key);
    const found: (ApiKeyRecord | undefined)[] = [];
    found.push(await cached.findByKey(created[2]!.key), await cached.findByKey(created[1]!.key));
    expect(lookups()).toBe(3);
    found.push(await cached.findByKey(created[0]!.key));
    expect(lookups()).toBe(4);
    expect(found.map((r) => r?.name)).toEqual(['c', 'b', 'a']);
  });
});
