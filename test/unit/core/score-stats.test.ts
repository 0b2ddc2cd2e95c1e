import { describe, expect, it } from 'vitest';
import { scoreStats } from '../../../shared/core/score-stats.js';

describe('scoreStats', () => {
  it('computes mean, population std and the top-two gap', () => {
    const stats = scoreStats([1, 2, 3, 4]);
    expect(stats.mean).toBe(2.5);
    expect(stats.std).toBeCloseTo(Math.sqrt(1.25), 12);
    expect(stats.gap).toBe(1);
    expect(stats.max).toBe(4);
  });

  it('gap is 0 for a tie at the top and for a single score', () => {
    expect(scoreStats([0.9, 0.9, 0.1]).gap).toBe(0);
    expect(scoreStats([-2.5])).toEqual({ mean: -2.5, std: 0, gap: 0, max: -2.5 });
  });

  it('ignores NaN and handles negative logits', () => {
    const stats = scoreStats([-3, Number.NaN, -1]);
    expect(stats.mean).toBe(-2);
    expect(stats.gap).toBe(2);
  });

  it('gives zeros for no scores', () => {
    expect(scoreStats([])).toEqual({ mean: 0, std: 0, gap: 0, max: 0 });
  });
});
