import { describe, expect, it } from 'vitest';
import { normalizeResults } from '../../../shared/core/normalize-results.js';
import { TopNSelection } from '../../../shared/engine/top-n-selection.js';
import type { ScoreActivation } from '../../../shared/core/rerank-request.js';

/** Streams the scores through the heap, then normalizes the survivors, as the batch finalizer does. */
function selectThenNormalize(scores: number[], topN: number | undefined, threshold: number | undefined, activation: ScoreActivation) {
  const selection = new TopNSelection({ capacity: Math.min(topN ?? scores.length, scores.length), activation, threshold });
  scores.forEach((s, i) => selection.offer(i, s));
  const { indices, rawScores } = selection.selected();
  return normalizeResults(rawScores, { activation, topN, threshold, documents: undefined }).map((r) => ({ ...r, index: indices[r.index] }));
}

describe('TopNSelection', () => {
  it('gives exactly normalizeResults over the whole set: ties, NaN, infinities, threshold, top_n', () => {
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const pool = [0.5, 0.5, -1, NaN, Infinity, -Infinity, 40, 41, 3];
    for (let round = 0; round < 300; round++) {
      const n = 1 + Math.floor(random() * 40);
      const scores = Array.from({ length: n }, () =>
        random() < 0.4 ? (pool[Math.floor(random() * pool.length)] as number) : Math.round(random() * 10) / 2 - 2,
      );
      const topN = random() < 0.3 ? undefined : Math.floor(random() * (n + 3));
      const threshold = random() < 0.7 ? undefined : random();
      const activation: ScoreActivation = random() < 0.5 ? 'sigmoid' : 'none';
      const whole = normalizeResults(scores, { activation, topN, threshold, documents: undefined });
      expect(selectThenNormalize(scores, topN, threshold, activation)).toEqual(whole);
    }
  });

  it('keeps at most its capacity, however many scores stream past', () => {
    const selection = new TopNSelection({ capacity: 3, activation: 'none', threshold: undefined });
    for (let i = 0; i < 10_000; i++) selection.offer(i, i % 977);
    const { indices, rawScores } = selection.selected();
    expect(indices).toEqual([976, 1953, 2930]);
    expect(rawScores).toEqual([976, 976, 976]);
  });
});
