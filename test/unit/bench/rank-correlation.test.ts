import { describe, expect, it } from 'vitest';
import { rankAgreement, spearman } from '../../../scripts/measure/scoring/rank-correlation.js';

describe('spearman', () => {
  it('is 1 for the same order, -1 for the reverse, whatever the scale', () => {
    expect(spearman([1, 2, 3, 4], [10, 20, 30, 40])).toBeCloseTo(1, 12);
    expect(spearman([1, 2, 3, 4], [0.4, 0.3, 0.2, 0.1])).toBeCloseTo(-1, 12);
  });

  it('matches the textbook value with one swapped pair', () => {
    // rho = 1 - 6 * sum(d^2) / (n (n^2 - 1)) = 1 - 6 * 2 / 120
    expect(spearman([1, 2, 3, 4, 5], [1, 2, 3, 5, 4])).toBeCloseTo(0.9, 12);
  });

  it('gives tied scores their mean rank', () => {
    // ranks [1, 2.5, 2.5, 4] vs [1, 2, 3, 4]: Pearson of the ranks
    expect(spearman([1, 2, 2, 3], [1, 2, 3, 4])).toBeCloseTo(0.9486832980505138, 12);
  });

  it('is NaN for lists of different length or fewer than 2 values', () => {
    expect(spearman([1, 2], [1])).toBeNaN();
    expect(spearman([1], [1])).toBeNaN();
  });
});

describe('rankAgreement', () => {
  it('reports the largest difference absolutely and relative to the reference range', () => {
    const agreement = rankAgreement([0, 1, 2, 4], [0.1, 1, 2.2, 4]);
    expect(agreement.maxAbsDiff).toBeCloseTo(0.2, 12);
    expect(agreement.maxAbsDiffOverRange).toBeCloseTo(0.05, 12);
    expect(agreement.spearman).toBeCloseTo(1, 12);
  });

  it('counts how many of the reference top k stay in the top k', () => {
    // Reference top 2 = documents 3 and 2; the variant's top 2 = documents 3 and 0.
    const agreement = rankAgreement([0, 1, 2, 3], [2.5, 1, 0, 3], 2);
    expect(agreement.topKOverlap).toBe(0.5);
  });

  it('caps k at the number of documents', () => {
    expect(rankAgreement([3, 1, 2], [1, 2, 3], 10).topKOverlap).toBe(1);
  });

  it('shows near-tied references: a small error spans the whole range', () => {
    const reference = [0.1, 0.1001, 0.1002, 0.1003];
    const agreement = rankAgreement(reference, [0.1003, 0.1002, 0.1001, 0.1]);
    expect(agreement.spearman).toBeCloseTo(-1, 12);
    expect(agreement.maxAbsDiffOverRange).toBeCloseTo(1, 6);
  });

  it('is 0 relative error for identical constant scores and NaN for mismatched lists', () => {
    expect(rankAgreement([1, 1], [1, 1]).maxAbsDiffOverRange).toBe(0);
    expect(rankAgreement([1, 2], [1]).spearman).toBeNaN();
  });
});
