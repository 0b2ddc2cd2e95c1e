import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { BatchRecord } from '../../shared/batches/batch-model.js';
import { BatchExistsError, type BatchStore } from '../../shared/batches/batch-store.js';

const batch = (id: string, ownerKeyId: string): BatchRecord => ({
  id,
  ownerKeyId,
  inputFileId: 'file-1',
  inputFileVersion: 'v1',
  endpoint: '/v1/rerank',
  completionWindow: '24h',
  createdAt: 1,
  expiresAt: 2,
  status: 'validating',
  total: 0,
  planned: false,
});

/**
 * What every BatchStore adapter must do (the in-memory one here; DynamoDB's next, issue 23). `makeStore` may
 * return the same store each time: every test uses fresh ids.
 */
export function describeBatchStoreContract(name: string, makeStore: () => BatchStore | Promise<BatchStore>): void {
describe(`BatchStore contract: ${name}`, () => {
  it('records a chunk once: a second delivery counts nothing', async () => {
    const store = await makeStore();
    const [b1, k1] = [`b-${randomUUID()}`, `k-${randomUUID()}`];
    await store.create(batch(b1, k1));
    const chunk = { chunkIndex: 0, offset: 0, scores: [1, 2], tokens: 4 };
    expect(await store.putChunkScores(b1, 1, chunk)).toEqual({ recorded: true, chunksDone: 1 });
    expect(await store.putChunkScores(b1, 1, { ...chunk, scores: [9, 9] })).toEqual({ recorded: false, chunksDone: 1 });
    const read = [];
    for await (const c of store.readChunkScores(b1, 1)) read.push(c.scores);
    expect(read).toEqual([[1, 2]]);
  });

  it('keeps a result once and sums the progress shards', async () => {
    const store = await makeStore();
    const [b1, k1] = [`b-${randomUUID()}`, `k-${randomUUID()}`];
    await store.create(batch(b1, k1));
    for (let line = 1; line <= 40; line++) await store.putResult(b1, { line, outcome: line % 4 === 0 ? 'failed' : 'completed', jsonl: '{}' });
    expect(await store.putResult(b1, { line: 4, outcome: 'completed', jsonl: '{}' })).toBe(false);
    expect(await store.countResults(b1)).toEqual({ completed: 30, failed: 10 });
  });

  it('updates only from the expected statuses (one finalizer wins a race)', async () => {
    const store = await makeStore();
    const [b1, k1] = [`b-${randomUUID()}`, `k-${randomUUID()}`];
    await store.create({ ...batch(b1, k1), status: 'in_progress' });
    const [first, second] = await Promise.all([
      store.update(b1, ['in_progress'], { status: 'finalizing', ending: 'completed' }),
      store.update(b1, ['in_progress'], { status: 'finalizing', ending: 'completed' }),
    ]);
    expect([first?.status, second]).toEqual(['finalizing', undefined]);
    await expect(store.create(batch(b1, k1))).rejects.toBeInstanceOf(BatchExistsError);
  });

  it('pages an owner\'s batches newest first and lists only unfinished ones as active', async () => {
    const store = await makeStore();
    const [k1, k2] = [`k-${randomUUID()}`, `k-${randomUUID()}`];
    const [a, b, c] = ['a', 'b', 'c'].map((x) => `${k1}-${x}`) as [string, string, string];
    // Newest first by created_at (distinct seconds: the order within one second is the adapter's own).
    for (const [i, id] of [a, b, c].entries()) await store.create({ ...batch(id, k1), createdAt: 100 + i });
    await store.create(batch(`other-${randomUUID()}`, k2));
    await store.update(b, ['validating'], { status: 'completed' });
    const first = await store.list(k1, { limit: 2 });
    expect([first.batches.map((x) => x.id), first.hasMore]).toEqual([[c, b], true]);
    const next = await store.list(k1, { limit: 2, after: b });
    expect([next.batches.map((x) => x.id), next.hasMore]).toEqual([[a], false]);
    expect((await store.listActive(k1)).map((x) => x.id).sort()).toEqual([a, c].sort());
  });
});
}
