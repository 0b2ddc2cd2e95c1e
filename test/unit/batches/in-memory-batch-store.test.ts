import { describe, expect, it } from 'vitest';
import { InMemoryBatchStore } from '../../../shared/adapters/memory/in-memory-batch-store.js';
import type { BatchRecord } from '../../../shared/batches/batch-model.js';
import { BatchExistsError } from '../../../shared/batches/batch-store.js';

const batch = (id: string, ownerKeyId = 'k1'): BatchRecord => ({
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

describe('InMemoryBatchStore', () => {
  it('records a chunk once: a second delivery counts nothing', async () => {
    const store = new InMemoryBatchStore();
    await store.create(batch('b1'));
    const chunk = { chunkIndex: 0, offset: 0, scores: [1, 2], tokens: 4 };
    expect(await store.putChunkScores('b1', 1, chunk)).toEqual({ recorded: true, chunksDone: 1 });
    expect(await store.putChunkScores('b1', 1, { ...chunk, scores: [9, 9] })).toEqual({ recorded: false, chunksDone: 1 });
    const read = [];
    for await (const c of store.readChunkScores('b1', 1)) read.push(c.scores);
    expect(read).toEqual([[1, 2]]);
  });

  it('keeps a result once and sums the progress shards', async () => {
    const store = new InMemoryBatchStore();
    await store.create(batch('b1'));
    for (let line = 1; line <= 40; line++) await store.putResult('b1', { line, outcome: line % 4 === 0 ? 'failed' : 'completed', jsonl: '{}' });
    expect(await store.putResult('b1', { line: 4, outcome: 'completed', jsonl: '{}' })).toBe(false);
    expect(await store.countResults('b1')).toEqual({ completed: 30, failed: 10 });
  });

  it('updates only from the expected statuses (one finalizer wins a race)', async () => {
    const store = new InMemoryBatchStore();
    await store.create({ ...batch('b1'), status: 'in_progress' });
    const [first, second] = await Promise.all([
      store.update('b1', ['in_progress'], { status: 'finalizing', ending: 'completed' }),
      store.update('b1', ['in_progress'], { status: 'finalizing', ending: 'completed' }),
    ]);
    expect([first?.status, second]).toEqual(['finalizing', undefined]);
    await expect(store.create(batch('b1'))).rejects.toBeInstanceOf(BatchExistsError);
  });

  it('pages an owner\'s batches newest first and lists only unfinished ones as active', async () => {
    const store = new InMemoryBatchStore();
    for (const id of ['a', 'b', 'c']) await store.create(batch(id));
    await store.create(batch('other', 'k2'));
    await store.update('b', ['validating'], { status: 'completed' });
    const first = await store.list('k1', { limit: 2 });
    expect([first.batches.map((b) => b.id), first.hasMore]).toEqual([['c', 'b'], true]);
    const next = await store.list('k1', { limit: 2, after: 'b' });
    expect([next.batches.map((b) => b.id), next.hasMore]).toEqual([['a'], false]);
    expect((await store.listActive('k1')).map((b) => b.id)).toEqual(['a', 'c']);
  });
});
