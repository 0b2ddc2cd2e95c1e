import { describe, expect, it } from 'vitest';
import { InMemoryChunkLedger } from '../../../shared/adapters/memory/in-memory-chunk-ledger.js';
import type { ScoreActivation } from '../../../shared/core/rerank-request.js';
import { pruneChunkScores, rankSelected, selectTopScores } from '../../../shared/engine/rank-chunk-scores.js';

/** Deterministic scores with many ties, NaNs and a spread that puts a chunk's best anywhere. */
const scoresOf = (count: number, seed: number): number[] =>
  Array.from({ length: count }, (_, i) => {
    const x = Math.sin(i * 12.9898 + seed * 78.233) * 43_758.5453;
    if (i % 97 === 13) return Number.NaN;
    return Math.round((x - Math.floor(x)) * 40) / 4 - 5;
  });

async function rank(
  chunks: readonly number[][],
  options: { topN: number | undefined; threshold: number | undefined; activation: ScoreActivation },
  prune: boolean,
) {
  const ledger = new InMemoryChunkLedger();
  let offset = 0;
  for (const [chunkIndex, scores] of chunks.entries()) {
    const pruned = prune ? pruneChunkScores(scores, options) : undefined;
    await ledger.putChunkScores('batch_x', 1, { chunkIndex, offset, tokens: scores.length, ...(pruned ?? { scores }) }, chunks.length);
    offset += scores.length;
  }
  const total = offset;
  const rankOptions = { total, ...options };
  const selected = await selectTopScores(ledger, { owner: 'batch_x', line: 1, chunkCount: chunks.length }, rankOptions);
  return { ranked: rankSelected(selected, rankOptions), tokens: selected.tokens };
}

describe('pruneChunkScores', () => {
  it('keeps only what can reach top_n, and the merge ranks exactly as it does over every score (ties, NaN, threshold, activations)', async () => {
    const chunks = [scoresOf(500, 1), scoresOf(333, 2), scoresOf(1_000, 3), scoresOf(7, 4)];
    for (const activation of ['sigmoid', 'none', 'logit'] as const) {
      for (const topN of [1, 5, 50, 600]) {
        for (const threshold of [undefined, 0.5]) {
          const options = { topN, threshold, activation };
          expect(await rank(chunks, options, true)).toEqual(await rank(chunks, options, false));
        }
      }
    }
  });

  it('cuts a large chunk to top_n scores at their positions, and leaves whole a chunk no larger than top_n or a request without one', () => {
    const scores = scoresOf(10_000, 5);
    const pruned = pruneChunkScores(scores, { topN: 10, threshold: undefined, activation: 'sigmoid' });
    expect(pruned?.scores).toHaveLength(10);
    expect(pruned?.count).toBe(10_000);
    expect(pruned?.positions.every((p, i, all) => i === 0 || p > (all[i - 1] as number))).toBe(true);
    pruned?.positions.forEach((position, i) => expect(pruned.scores[i]).toBe(scores[position]));
    expect(pruneChunkScores(scores.slice(0, 10), { topN: 10, threshold: undefined, activation: 'sigmoid' })).toBeUndefined();
    expect(pruneChunkScores(scores, { topN: undefined, threshold: undefined, activation: 'sigmoid' })).toBeUndefined();
  });

  it('refuses a pruned chunk where the request fuses over every score', async () => {
    const ledger = new InMemoryChunkLedger();
    const pruned = pruneChunkScores(scoresOf(100, 6), { topN: 3, threshold: undefined, activation: 'none' });
    await ledger.putChunkScores('batch_x', 1, { chunkIndex: 0, offset: 0, tokens: 1, ...pruned! }, 1);
    const fuse = async (scores: readonly number[]) => scores;
    await expect(
      selectTopScores(
        ledger,
        { owner: 'batch_x', line: 1, chunkCount: 1 },
        { total: 100, topN: 3, threshold: undefined, activation: 'none', fuse },
      ),
    ).rejects.toThrow(/pruned/);
  });
});
