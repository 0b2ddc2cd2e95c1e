import { describe, expect, it } from 'vitest';
import type { ApiKeyStore } from '../../shared/auth/api-key-store.js';
import { API_KEY_PATTERN, apiKeyDigest } from '../../shared/auth/api-key.js';
import { InvalidApiKeyOptionsError } from '../../shared/auth/api-key-errors.js';
import { keyIdOf } from '../../shared/auth/api-key.js';

export interface KeyStoreHarness {
  readonly store: ApiKeyStore;
  /** Everything the adapter persisted, as text (file contents, item dumps): the key must never be in it. Absent: nothing persisted. */
  readonly storedText?: () => Promise<string>;
}

/**
 * The one behaviour every ApiKeyStore adapter must have. The harness may share one store across tests:
 * each test only looks at the keys it created.
 */
/** `persists: false` for adapters that keep nothing at rest: the at-rest check does not apply to them. */
export function describeApiKeyStoreContract(
  name: string,
  makeHarness: () => KeyStoreHarness | Promise<KeyStoreHarness>,
  options: { readonly persists?: boolean } = {},
): void {
  describe(`ApiKeyStore contract: ${name}`, () => {
    it('creates a key shown once and finds its record by the key', async () => {
      const { store } = await makeHarness();
      const before = Math.floor(Date.now() / 1000);
      const { key, record } = await store.create('  ci pipeline  ');
      expect(key).toMatch(API_KEY_PATTERN);
      expect(record).toEqual({ keyId: keyIdOf(key), name: 'ci pipeline', prefix: key.slice(0, 6), createdAt: expect.any(Number) });
      expect(record.createdAt).toBeGreaterThanOrEqual(before - 1);
      expect(await store.findByKey(key)).toEqual(record);
      expect(await store.findByKey(`${key}x`)).toBeUndefined();
      expect(await store.findByKey('rk-unknown')).toBeUndefined();
    });

    it('keeps per-key limits', async () => {
      const { store } = await makeHarness();
      const { key, record } = await store.create('limited', {
        rateLimitPerMinute: 120,
        maxConcurrentJobs: 3,
        maxQueuedPairs: 5_000_000_000,
      });
      expect(record).toMatchObject({ rateLimitPerMinute: 120, maxConcurrentJobs: 3, maxQueuedPairs: 5_000_000_000 });
      expect(await store.findByKey(key)).toEqual(record);
      const only = await store.create('rate only', { rateLimitPerMinute: 5 });
      expect(only.record.maxConcurrentJobs).toBeUndefined();
      expect(only.record.maxQueuedPairs).toBeUndefined();
      expect((await store.findByKey(only.key))?.rateLimitPerMinute).toBe(5);
    });

    it('refuses empty names and non-positive or fractional limits', async () => {
      const { store } = await makeHarness();
      await expect(store.create('   ')).rejects.toBeInstanceOf(InvalidApiKeyOptionsError);
      await expect(store.create('x', { rateLimitPerMinute: 0 })).rejects.toBeInstanceOf(InvalidApiKeyOptionsError);
      await expect(store.create('x', { maxConcurrentJobs: 1.5 })).rejects.toBeInstanceOf(InvalidApiKeyOptionsError);
    });

    it('lists keys oldest first without any secret', async () => {
      const { store } = await makeHarness();
      const a = await store.create('list a');
      const b = await store.create('list b', { maxConcurrentJobs: 2 });
      const listed = (await store.list()).filter((r) => r.keyId === a.record.keyId || r.keyId === b.record.keyId);
      expect(listed).toHaveLength(2);
      expect(listed).toContainEqual(a.record);
      expect(listed).toContainEqual(b.record);
      const all = await store.list();
      expect(all.map((r) => r.createdAt)).toEqual([...all.map((r) => r.createdAt)].sort((x, y) => x - y));
      const text = JSON.stringify(all);
      expect(text).not.toContain(a.key);
      expect(text).not.toContain(apiKeyDigest(a.key));
    });

    it('revokes once: the key is no longer found, the listing shows when', async () => {
      const { store } = await makeHarness();
      const { key, record } = await store.create('to revoke');
      const other = await store.create('stays');
      expect(await store.revoke(record.keyId)).toBe(true);
      expect(await store.findByKey(key)).toBeUndefined();
      expect(await store.findByKey(other.key)).toEqual(other.record);
      const listed = (await store.list()).find((r) => r.keyId === record.keyId);
      expect(listed).toEqual({ ...record, revokedAt: expect.any(Number) });
      expect(listed?.revokedAt).toBeGreaterThanOrEqual(record.createdAt);
      expect(await store.revoke(record.keyId)).toBe(false);
      expect(await store.revoke('0000000000000000')).toBe(false);
    });

    it('concurrent revokes of one key: exactly one wins', async () => {
      const { store } = await makeHarness();
      const { record } = await store.create('raced');
      const outcomes = await Promise.all(Array.from({ length: 5 }, () => store.revoke(record.keyId)));
      expect(outcomes.filter(Boolean)).toHaveLength(1);
    });

    it('mints distinct keys under concurrency', async () => {
      const { store } = await makeHarness();
      const created = await Promise.all(Array.from({ length: 20 }, (_, i) => store.create(`bulk ${i}`)));
      expect(new Set(created.map((c) => c.key)).size).toBe(20);
      const found = await Promise.all(created.map((c) => store.findByKey(c.key)));
      expect(found.map((r) => r?.keyId)).toEqual(created.map((c) => c.record.keyId));
    });

    // Only adapters that keep keys at rest have something to inspect.
    if (options.persists !== false) {
      it('stores only digests, never a key', async () => {
        const harness = await makeHarness();
        expect(harness.storedText).toBeDefined();
        const { key } = await harness.store.create('secret check');
        const stored = await (harness.storedText as () => Promise<string>)();
        expect(stored).toContain(apiKeyDigest(key));
        expect(stored).not.toContain(key);
        expect(stored).not.toContain(key.slice(3));
      });
    }
  });
}
