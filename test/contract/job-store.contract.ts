import { describe, expect, it } from 'vitest';
import type { RerankDocument } from '../../shared/core/rerank-request.js';
import { JobExistsError, type JobStore } from '../../shared/jobs/job-store.js';
import { bits, makeSpec, nowSeconds } from './job-fixtures.js';

/**
 * The one behaviour every JobStore adapter must have. `makeStore` may return the same store each time:
 * every test uses fresh job ids.
 */
export function describeJobStoreContract(name: string, makeStore: () => JobStore | Promise<JobStore>): void {
  describe(`JobStore contract: ${name}`, () => {
    it('creates a running job and reads it back; unknown ids and duplicate creates are refused', async () => {
      const store = await makeStore();
      const spec = makeSpec();
      const now = nowSeconds();
      await store.create(spec, undefined, now);
      expect(await store.get(spec.id)).toEqual({ ...spec, status: 'running', createdAt: now, updatedAt: now });
      const bare = makeSpec({ topN: undefined, threshold: undefined, returnDocuments: false });
      await store.create(bare, undefined, now);
      const got = await store.get(bare.id);
      expect(got?.topN).toBeUndefined();
      expect(got?.threshold).toBeUndefined();
      expect(got?.error).toBeUndefined();
      expect(await store.get('no-such-job')).toBeUndefined();
      // The per-chunk status read may be eventually consistent; it reads the same job.
      expect(await store.get(spec.id, { consistent: false })).toEqual({ ...spec, status: 'running', createdAt: now, updatedAt: now });
      expect(await store.complete('no-such-job', { ranked: [], totalTokens: 0 }, now)).toBe(false);
      // A create retried after a lost response succeeds; a different job under an existing id is refused.
      await store.create(spec, undefined, now);
      expect(await store.get(spec.id)).toEqual({ ...spec, status: 'running', createdAt: now, updatedAt: now });
      // A typed error, the same from every adapter: callers match JobExistsError, never a message.
      await expect(store.create({ ...spec, documentCount: spec.documentCount + 1 }, undefined, now)).rejects.toBeInstanceOf(JobExistsError);
      await expect(store.create(spec, undefined, now + 5)).rejects.toBeInstanceOf(JobExistsError);
    });

    it('treats an expired job as absent', async () => {
      const store = await makeStore();
      const spec = makeSpec({ expiresAt: nowSeconds() - 10 });
      await store.create(spec, undefined, nowSeconds() - 100);
      expect(await store.get(spec.id)).toBeUndefined();
      expect(await store.complete(spec.id, { ranked: [], totalTokens: 0 }, nowSeconds())).toBe(false);
      expect(await store.fail(spec.id, 'late', nowSeconds())).toBe(false);
    });

    it('fails once and keeps the reason', async () => {
      const store = await makeStore();
      const spec = makeSpec({ chunkCount: 3 });
      await store.create(spec, undefined, 100);
      expect(await store.fail(spec.id, 'scorer unavailable', 102)).toBe(true);
      expect(await store.get(spec.id)).toMatchObject({ status: 'failed', error: 'scorer unavailable', updatedAt: 102 });
      expect(await store.fail(spec.id, 'again', 104)).toBe(false);
      expect(await store.complete(spec.id, { ranked: [[0, 1]], totalTokens: 1 }, 105)).toBe(false);
      expect(await store.getResult(spec.id)).toBeUndefined();
    });

    it('completes once; later completes and fails are refused', async () => {
      const store = await makeStore();
      const spec = makeSpec({ chunkCount: 1 });
      await store.create(spec, undefined, 100);
      expect(await store.getResult(spec.id)).toBeUndefined();
      const result = {
        ranked: [
          [1, 0.9],
          [0, 0.1],
        ] as [number, number][],
        totalTokens: 42,
      };
      expect(await store.complete(spec.id, result, 102)).toBe(true);
      expect(await store.complete(spec.id, { ranked: [[0, 1]], totalTokens: 1 }, 103)).toBe(false);
      expect(await store.fail(spec.id, 'too late', 104)).toBe(false);
      expect(await store.get(spec.id)).toMatchObject({ status: 'succeeded', updatedAt: 102 });
      expect(await store.getResult(spec.id)).toEqual(result);
    });

    it('keeps what the model cut with the result, and the unused controls with the job', async () => {
      const store = await makeStore();
      const spec = makeSpec({ chunkCount: 1, unusedControls: ['instruction', 'priority'] });
      await store.create(spec, undefined, 100);
      expect(await store.get(spec.id)).toMatchObject({ unusedControls: ['instruction', 'priority'] });
      const result = {
        ranked: [[0, 0.5]] as [number, number][],
        totalTokens: 3,
        cuts: { query: 4, documents: [[0, 2]] as [number, number][], more: 9 },
      };
      expect(await store.complete(spec.id, result, 102)).toBe(true);
      expect(await store.getResult(spec.id)).toEqual(result);
    });

    it('round-trips documents exactly, including sets larger than one item', async () => {
      const store = await makeStore();
      const documents: RerankDocument[] = Array.from({ length: 2000 }, (_, i) => ({
        text: `doc ${i} ` + 'é漢🙂x'.repeat(2048 / 5),
        ...(i % 2 === 0 ? { source: { text: `doc ${i}`, id: i, tags: ['a', null, { nested: true }], score: 0.1 + 0.2 } } : {}),
      }));
      const spec = makeSpec({ documentCount: documents.length });
      await store.create(spec, documents, nowSeconds());
      expect(await store.getDocuments(spec.id)).toEqual(documents);
      const without = makeSpec({ returnDocuments: false });
      await store.create(without, undefined, nowSeconds());
      expect(await store.getDocuments(without.id)).toEqual([]);
    });

    it('round-trips results larger than one item exactly', async () => {
      const store = await makeStore();
      const spec = makeSpec({ chunkCount: 1 });
      await store.create(spec, undefined, nowSeconds());
      const ranked = Array.from({ length: 50_000 }, (_, i): [number, number] => [i, Math.sin(i) / 3 + i * 1e-12]);
      expect(await store.complete(spec.id, { ranked, totalTokens: 1_234_567 }, nowSeconds())).toBe(true);
      const stored = await store.getResult(spec.id);
      expect(stored?.totalTokens).toBe(1_234_567);
      expect(stored?.ranked.map(([i]) => i)).toEqual(ranked.map(([i]) => i));
      expect(bits(stored?.ranked.map(([, s]) => s) ?? [])).toEqual(bits(ranked.map(([, s]) => s)));
    });

    it('keeps float64 scores bit-exact in results', async () => {
      const store = await makeStore();
      const awkward = [0.1 + 0.2, -1e-300, 5e-324, -5e-324, 1.7976931348623157e308, Math.PI, -0, 0, NaN, Infinity, -Infinity, 1 / 3];
      const spec = makeSpec({ chunkCount: 1 });
      await store.create(spec, undefined, nowSeconds());
      await store.complete(spec.id, { ranked: awkward.map((s, i) => [i, s]), totalTokens: 0 }, nowSeconds());
      const stored = await store.getResult(spec.id);
      expect(bits(stored?.ranked.map(([, s]) => s) ?? [])).toEqual(bits(awkward));
    });
  });
}
