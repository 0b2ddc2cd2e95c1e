import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { BatchChunkScores, BatchRecord, BatchRequestPlan, BatchRequestResult } from '../../shared/batches/batch-model.js';
import { BatchExistsError, type BatchStore } from '../../shared/batches/batch-store.js';

const NOW = 1_800_000_000;

const makeBatch = (overrides: Partial<BatchRecord> = {}): BatchRecord => ({
  id: `batch_${randomUUID().replaceAll('-', '')}`,
  ownerKeyId: `key-${randomUUID().slice(0, 8)}`,
  inputFileId: 'file-0123456789abcdef01234567',
  inputFileVersion: 'v1',
  endpoint: '/v1/rerank',
  completionWindow: '24h',
  metadata: { purpose: 'contract' },
  createdAt: NOW,
  expiresAt: NOW + 86_400,
  status: 'validating',
  total: 0,
  planned: false,
  ...overrides,
});

const plan = (line: number, chunkCount = 2): BatchRequestPlan => ({
  line,
  customId: `req-${line}`,
  range: { start: line * 100, end: line * 100 + 99 },
  candidates: { kind: 'inline', count: 10 },
  chunkModel: 'tinybert',
  chunkCount,
});

const scores = (chunkIndex: number, values: number[] = [chunkIndex + 0.25, -chunkIndex]): BatchChunkScores => ({
  chunkIndex,
  offset: chunkIndex * values.length,
  scores: values,
  tokens: 7 * (chunkIndex + 1),
});

const result = (
  line: number,
  outcome: BatchRequestResult['outcome'] = 'completed',
  jsonl = `{"custom_id":"req-${line}"}`,
): BatchRequestResult => ({
  line,
  outcome,
  jsonl,
});

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}

/**
 * The one behaviour every BatchStore adapter must have (in-memory for npm start, DynamoDB on AWS). `makeStore`
 * may return the same store each time: every test uses fresh batch ids and owners.
 */
export function describeBatchStoreContract(name: string, makeStore: () => BatchStore | Promise<BatchStore>): void {
  describe(`BatchStore contract: ${name}`, () => {
    it('creates a batch and reads it back; an id is created once', async () => {
      const store = await makeStore();
      const batch = makeBatch();
      await store.create(batch);
      expect(await store.get(batch.id)).toEqual(batch);
      expect(await store.get('batch_missing')).toBeUndefined();
      await expect(store.create({ ...batch, total: 3 })).rejects.toBeInstanceOf(BatchExistsError);
      expect(await store.get(batch.id)).toEqual(batch);
    });

    it("lists only the owner's batches, newest first, in pages", async () => {
      const store = await makeStore();
      const owner = `key-${randomUUID().slice(0, 8)}`;
      const ids: string[] = [];
      for (let i = 0; i < 5; i += 1) {
        const batch = makeBatch({ ownerKeyId: owner, createdAt: NOW + i });
        ids.push(batch.id);
        await store.create(batch);
      }
      const other = makeBatch({ createdAt: NOW + 10 });
      await store.create(other);
      const first = await store.list(owner, { limit: 2 });
      expect(first.batches.map((b) => b.id)).toEqual([ids[4], ids[3]]);
      expect(first.hasMore).toBe(true);
      const second = await store.list(owner, { limit: 2, after: ids[3] });
      expect(second.batches.map((b) => b.id)).toEqual([ids[2], ids[1]]);
      const last = await store.list(owner, { limit: 2, after: ids[1] });
      expect(last.batches.map((b) => b.id)).toEqual([ids[0]]);
      expect(last.hasMore).toBe(false);
    });

    it('moves a batch only from the statuses given; of two racing transitions exactly one wins', async () => {
      const store = await makeStore();
      const batch = makeBatch();
      await store.create(batch);
      expect(await store.update(batch.id, ['in_progress'], { status: 'finalizing' })).toBeUndefined();
      const started = await store.update(batch.id, ['validating'], {
        status: 'in_progress',
        inProgressAt: NOW + 1,
        total: 4,
        planned: true,
      });
      expect(started).toEqual({ ...batch, status: 'in_progress', inProgressAt: NOW + 1, total: 4, planned: true });
      expect(await store.get(batch.id)).toEqual(started);
      const [finalizing, cancelling] = await Promise.all([
        store.update(batch.id, ['in_progress'], { status: 'finalizing', finalizingAt: NOW + 2 }),
        store.update(batch.id, ['in_progress'], { status: 'cancelling', cancellingAt: NOW + 2 }),
      ]);
      expect([finalizing, cancelling].filter((r) => r !== undefined)).toHaveLength(1);
      expect(await store.update('batch_missing', ['in_progress'], { status: 'failed' })).toBeUndefined();
    });

    it('leases a batch being ended to one finalizer at a time: taken, renewed, refused while live, free once run out or given up', async () => {
      const store = await makeStore();
      const batch = makeBatch({ status: 'in_progress', planned: true });
      await store.create(batch);
      // Only a batch whose end is claimed has a finalizer to lease it.
      expect(await store.leaseFinalize(batch.id, { owner: 'a', until: NOW + 60 }, NOW)).toBeUndefined();
      expect(await store.leaseFinalize('batch_missing', { owner: 'a', until: NOW + 60 }, NOW)).toBeUndefined();
      await store.update(batch.id, ['in_progress'], { status: 'finalizing', finalizingAt: NOW, ending: 'quota_exceeded' });
      const racing = await Promise.all([
        store.leaseFinalize(batch.id, { owner: 'a', until: NOW + 60 }, NOW),
        store.leaseFinalize(batch.id, { owner: 'b', until: NOW + 60 }, NOW),
      ]);
      expect(racing.filter((r) => r !== undefined)).toHaveLength(1);
      const [holder, other] = racing[0] ? ['a', 'b'] : ['b', 'a'];
      expect((await store.get(batch.id))?.finalizeLease).toEqual({ owner: holder, until: NOW + 60 });
      // The holder renews; the other is refused while the lease is live, and the patch around it is kept.
      expect(await store.leaseFinalize(batch.id, { owner: holder!, until: NOW + 120 }, NOW + 30)).toMatchObject({
        status: 'finalizing',
        ending: 'quota_exceeded',
        finalizeLease: { owner: holder, until: NOW + 120 },
      });
      expect(await store.leaseFinalize(batch.id, { owner: other!, until: NOW + 180 }, NOW + 119)).toBeUndefined();
      // Run out: the other takes it; the first one's end is refused now, the holder's goes through.
      expect(await store.leaseFinalize(batch.id, { owner: other!, until: NOW + 300 }, NOW + 120)).toBeDefined();
      expect(await store.update(batch.id, ['finalizing'], { status: 'failed' }, holder)).toBeUndefined();
      // Given up (until = now): free at once.
      expect(await store.leaseFinalize(batch.id, { owner: other!, until: NOW + 121 }, NOW + 121)).toBeDefined();
      expect(await store.leaseFinalize(batch.id, { owner: holder!, until: NOW + 400 }, NOW + 121)).toBeDefined();
      const ended = await store.update(batch.id, ['finalizing'], { status: 'failed', failedAt: NOW + 122 }, holder);
      expect(ended?.status).toBe('failed');
      // An ended batch is leased to nobody.
      expect(await store.leaseFinalize(batch.id, { owner: other!, until: NOW + 999 }, NOW + 500)).toBeUndefined();
      expect(await store.get(batch.id)).toMatchObject({ status: 'failed', failedAt: NOW + 122 });
    });

    it("lists every key's active batches until they reach a terminal status", async () => {
      const store = await makeStore();
      const a = makeBatch({ ownerKeyId: `key-${randomUUID().slice(0, 8)}` });
      const b = makeBatch({ ownerKeyId: `key-${randomUUID().slice(0, 8)}` });
      await store.create(a);
      await store.create(b);
      // The table may hold other tests' batches: only these two are looked for.
      const ours = async () =>
        (await store.listActive())
          .map((x) => x.id)
          .filter((id) => id === a.id || id === b.id)
          .sort();
      expect(await ours()).toEqual([a.id, b.id].sort());
      await store.update(a.id, ['validating'], { status: 'failed', failedAt: NOW + 1 });
      expect(await ours()).toEqual([b.id]);
    });

    it('keeps request plans and reads them back in line order', async () => {
      const store = await makeStore();
      const batch = makeBatch();
      await store.create(batch);
      const lines = [40, 3, 17, 1, 33, 2, 16, 18];
      for (const line of lines) await store.putRequest(batch.id, plan(line));
      expect(await store.getRequest(batch.id, 17)).toEqual(plan(17));
      expect(await store.getRequest(batch.id, 99)).toBeUndefined();
      expect((await collect(store.readRequests(batch.id))).map((p) => p.line)).toEqual([...lines].sort((x, y) => x - y));
    });

    it('records a chunk once, bit for bit, however often it is delivered', async () => {
      const store = await makeStore();
      const batch = makeBatch();
      await store.create(batch);
      await store.putRequest(batch.id, plan(5, 3));
      const odd = scores(1, [5e-324, -0, Number.NaN, Infinity, -1e-300, 0.1 + 0.2]);
      expect(await store.putChunkScores(batch.id, 5, scores(0), 3)).toEqual({ recorded: true, chunksDone: 1 });
      const racing = await Promise.all([1, 2, 3].map(() => store.putChunkScores(batch.id, 5, odd, 3)));
      expect(racing.filter((r) => r.recorded)).toHaveLength(1);
      expect(await store.putChunkScores(batch.id, 5, scores(0), 3)).toEqual({ recorded: false, chunksDone: 2 });
      const read = await collect(store.readChunkScores(batch.id, 5, 3));
      expect(read.map((c) => c.chunkIndex)).toEqual([0, 1]);
      expect(read[1]?.scores.map((v) => (Object.is(v, -0) ? '-0' : String(v)))).toEqual(
        odd.scores.map((v) => (Object.is(v, -0) ? '-0' : String(v))),
      );
      expect(read[1]).toMatchObject({ offset: odd.offset, tokens: odd.tokens });
      await store.deleteChunkScores(batch.id, 5, 3);
      expect(await collect(store.readChunkScores(batch.id, 5, 3))).toEqual([]);
    });

    it('counts a request of many chunks exactly, out of order and delivered twice, and reads them back in order with their lexical parts', async () => {
      const store = await makeStore();
      const batch = makeBatch();
      await store.create(batch);
      const chunkCount = 150; // more chunks than one counter item takes in the DynamoDB adapter
      await store.putRequest(batch.id, plan(3, chunkCount));
      const order = Array.from({ length: chunkCount }, (_, i) => (i * 37) % chunkCount);
      const chunk = (i: number): BatchChunkScores => ({ ...scores(i), lexical: [i / 10, -i / 10] });
      const counted: number[] = [];
      for (const [at, i] of order.entries()) {
        const recorded = await store.putChunkScores(batch.id, 3, chunk(i), chunkCount);
        expect(recorded.recorded).toBe(true);
        counted.push(recorded.chunksDone);
        // Every tenth chunk delivered again: nothing more is counted.
        if (at % 10 === 0) expect((await store.putChunkScores(batch.id, 3, chunk(i), chunkCount)).recorded).toBe(false);
      }
      // Complete exactly once all are in, and never before.
      expect(counted.at(-1)).toBe(chunkCount);
      expect(counted.slice(0, -1).every((done) => done < chunkCount)).toBe(true);
      expect((await store.putChunkScores(batch.id, 3, chunk(0), chunkCount)).chunksDone).toBe(chunkCount);
      const read = await collect(store.readChunkScores(batch.id, 3, chunkCount));
      expect(read.map((c) => c.chunkIndex)).toEqual(Array.from({ length: chunkCount }, (_, i) => i));
      expect(read[149]).toEqual(chunk(149));
      await store.deleteChunkScores(batch.id, 3, chunkCount);
      expect(await collect(store.readChunkScores(batch.id, 3, chunkCount))).toEqual([]);
    });

    it('keeps a result once, counts it on its shard, and refuses chunks of a finished request', async () => {
      const store = await makeStore();
      const batch = makeBatch();
      await store.create(batch);
      const lines = Array.from({ length: 40 }, (_, i) => i + 1);
      for (const line of lines) await store.putRequest(batch.id, plan(line, 1));
      const outcomes = await Promise.all(
        lines.map((line) => store.putResult(batch.id, result(line, line % 5 === 0 ? 'failed' : 'completed'))),
      );
      expect(outcomes.every(Boolean)).toBe(true);
      expect(await store.putResult(batch.id, result(7, 'failed', '{"other":"finalizer"}'))).toBe(false);
      expect(await store.getResult(batch.id, 7)).toEqual(result(7));
      expect(await store.countResults(batch.id)).toEqual({ completed: 32, failed: 8 });
      expect((await collect(store.readResults(batch.id))).map((r) => r.line)).toEqual(lines);
      expect((await store.putChunkScores(batch.id, 7, scores(0), 1)).recorded).toBe(false);
      // Once the files hold the lines, the work is dropped; the request counts stay.
      await store.dropWork(batch.id);
      expect(await collect(store.readResults(batch.id))).toEqual([]);
      expect(await collect(store.readRequests(batch.id))).toEqual([]);
      expect(await store.countResults(batch.id)).toEqual({ completed: 32, failed: 8 });
    });

    it('keeps a result line larger than one storage item whole', async () => {
      const store = await makeStore();
      const batch = makeBatch();
      await store.create(batch);
      const big = JSON.stringify({
        custom_id: 'big',
        results: Array.from({ length: 40_000 }, (_, index) => ({ index, relevance_score: index / 3 })),
      });
      expect(big.length).toBeGreaterThan(1_000_000);
      expect(await store.putResult(batch.id, result(3, 'completed', big))).toBe(true);
      expect((await store.getResult(batch.id, 3))?.jsonl).toBe(big);
      expect((await collect(store.readResults(batch.id))).map((r) => r.jsonl.length)).toEqual([big.length]);
    });
  });
}
