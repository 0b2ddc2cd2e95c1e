import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { BatchChunkScores } from '../../shared/batches/batch-model.js';
import { jobLedgerOwner, type ChunkLedger } from '../../shared/engine/chunk-ledger.js';

const scores = (chunkIndex: number, values: number[] = [chunkIndex + 0.5, -chunkIndex]): BatchChunkScores => ({
  chunkIndex,
  offset: chunkIndex * values.length,
  scores: values,
  tokens: 10 * (chunkIndex + 1),
});

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}

const bits = (values: readonly number[]) => values.map((v) => (Object.is(v, -0) ? '-0' : String(v)));

/**
 * The chunk protocol as an async job uses it: an owner with no batch record (the job's own key), one request
 * (line 1). The batch store contract covers the same methods for batch lines; every adapter passes both.
 */
export function describeChunkLedgerContract(name: string, makeLedger: () => ChunkLedger | Promise<ChunkLedger>): void {
  describe(`ChunkLedger contract (a job's chunks): ${name}`, () => {
    const job = () => jobLedgerOwner(randomUUID());

    // A redelivered chunk carries the same scores (scoring is deterministic): the DynamoDB adapter may write them again.
    it('counts a duplicate delivery once and keeps the scores bit for bit', async () => {
      const ledger = await makeLedger();
      const owner = job();
      const awkward = [0.1 + 0.2, -1e-300, 5e-324, -5e-324, Math.PI, -0, 0, Number.NaN, Infinity, -Infinity, 1 / 3];
      expect(await ledger.putChunkScores(owner, 1, scores(0, awkward), 2)).toEqual({ recorded: true, chunksDone: 1 });
      expect(await ledger.putChunkScores(owner, 1, scores(0, awkward), 2)).toEqual({ recorded: false, chunksDone: 1 });
      const [first] = await collect(ledger.readChunkScores(owner, 1, 2));
      expect(bits(first?.scores ?? [])).toEqual(bits(awkward));
      expect(await ledger.putChunkScores(owner, 1, scores(1), 2)).toEqual({ recorded: true, chunksDone: 2 });
      expect(await ledger.countChunks(owner, 1, 2)).toBe(2);
    });

    it("keeps a pruned chunk's positions and scored count with its scores", async () => {
      const ledger = await makeLedger();
      const owner = job();
      const pruned: BatchChunkScores = { chunkIndex: 0, offset: 0, tokens: 7, scores: [0.9, 0.7], positions: [3, 40_000], count: 50_000 };
      expect(await ledger.putChunkScores(owner, 1, pruned, 1)).toEqual({ recorded: true, chunksDone: 1 });
      expect(await collect(ledger.readChunkScores(owner, 1, 1))).toEqual([pruned]);
    });

    it("keeps what the model cut in a chunk with its scores (the request's report)", async () => {
      const ledger = await makeLedger();
      const owner = job();
      const cut: BatchChunkScores = {
        ...scores(0),
        cuts: {
          query: 12,
          documents: [
            [0, 512],
            [1, 3],
          ],
          more: 7,
        },
      };
      const bare: BatchChunkScores = { ...scores(1), cuts: { documents: [[2, 5]] } };
      await ledger.putChunkScores(owner, 1, cut, 2);
      await ledger.putChunkScores(owner, 1, bare, 2);
      expect(await collect(ledger.readChunkScores(owner, 1, 2))).toEqual([cut, bare]);
    });

    it('counts 20 concurrent distinct chunks exactly (the last one sees 20 of 20) and concurrent duplicates once', async () => {
      const ledger = await makeLedger();
      const owner = job();
      const outcomes = await Promise.all(Array.from({ length: 20 }, (_, i) => ledger.putChunkScores(owner, 1, scores(i), 20)));
      expect(outcomes.every((o) => o.recorded)).toBe(true);
      expect(Math.max(...outcomes.map((o) => o.chunksDone))).toBe(20);
      const duplicates = await Promise.all(Array.from({ length: 10 }, () => ledger.putChunkScores(owner, 1, scores(3), 20)));
      expect(duplicates.filter((o) => o.recorded)).toHaveLength(0);
      expect(await ledger.countChunks(owner, 1, 20)).toBe(20);
      expect(await collect(ledger.readChunkScores(owner, 1, 20))).toEqual(Array.from({ length: 20 }, (_, i) => scores(i)));
    });

    it('counts a job of thousands of chunks exactly, however the deliveries interleave; dropping the scores keeps the count', async () => {
      const ledger = await makeLedger();
      const owner = job();
      const chunkCount = 1_000; // batch_size 1: ~16 counter items in the DynamoDB adapter, where META once took every write
      const order = Array.from({ length: chunkCount }, (_, i) => (i * 389) % chunkCount);
      const done: number[] = [];
      for (let at = 0; at < order.length; at += 50) {
        const wave = order.slice(at, at + 50);
        const counted = await Promise.all(wave.map((i) => ledger.putChunkScores(owner, 1, scores(i, [i]), chunkCount)));
        done.push(...counted.map((c) => c.chunksDone));
      }
      // The count reaches the total once every chunk is in (two counters filling together may both see it: the merge
      // is idempotent), and never runs past it.
      expect(done.filter((d) => d >= chunkCount).length).toBeGreaterThanOrEqual(1);
      expect(Math.max(...done)).toBe(chunkCount);
      expect(await ledger.countChunks(owner, 1, chunkCount)).toBe(chunkCount);
      const read = await collect(ledger.readChunkScores(owner, 1, chunkCount));
      expect(read.map((c) => c.chunkIndex)).toEqual(Array.from({ length: chunkCount }, (_, i) => i));
      await ledger.deleteChunkScores(owner, 1, chunkCount);
      expect(await collect(ledger.readChunkScores(owner, 1, chunkCount))).toEqual([]);
      expect(await ledger.countChunks(owner, 1, chunkCount)).toBe(chunkCount);
    }, 120_000);

    it('answers nothing recorded for an owner it never saw', async () => {
      const ledger = await makeLedger();
      expect(await ledger.countChunks(job(), 1, 5)).toBe(0);
      expect(await collect(ledger.readChunkScores(job(), 1, 5))).toEqual([]);
    });
  });
}
