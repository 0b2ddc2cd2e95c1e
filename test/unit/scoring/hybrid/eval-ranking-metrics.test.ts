// The evaluation's metrics (scripts/eval/ranking-metrics.ts) live with the hybrid scorer's tests
// because that is the test folder this work owns; they belong in test/unit/eval/ if one is created.
import { describe, expect, it } from 'vitest';
import { expectedRandomMetrics, ndcgAt, rankDocuments, reciprocalRankAt } from '../../../../scripts/eval/ranking-metrics.js';

const set = (...xs: number[]): Set<number> => new Set(xs);

describe('rankDocuments', () => {
  it('ranks like the service: higher first, ties in input order, NaN last', () => {
    expect(rankDocuments([0.1, 0.9, 0.5])).toEqual([1, 2, 0]);
    expect(rankDocuments([0, 0, 1, 0])).toEqual([2, 0, 1, 3]);
    expect(rankDocuments([Number.NaN, -1, 2])).toEqual([2, 1, 0]);
  });
});

describe('reciprocalRankAt', () => {
  it('is 1 / rank of the first relevant document within k, else 0', () => {
    expect(reciprocalRankAt([4, 2, 7], set(4), 10)).toBe(1);
    expect(reciprocalRankAt([4, 2, 7], set(7), 10)).toBeCloseTo(1 / 3, 12);
    expect(reciprocalRankAt([4, 2, 7], set(2, 7), 10)).toBe(0.5); // the first relevant one counts
    expect(reciprocalRankAt([4, 2, 7], set(7), 2)).toBe(0); // beyond k
    expect(reciprocalRankAt([4, 2, 7], set(), 10)).toBe(0);
  });
});

describe('ndcgAt', () => {
  it('is 1 for an ideal ranking and log-discounted otherwise', () => {
    expect(ndcgAt([3, 1, 2], set(3), 10)).toBe(1);
    expect(ndcgAt([1, 3, 2], set(3), 10)).toBeCloseTo(1 / Math.log2(3), 12); // 0.6309...
    expect(ndcgAt([1, 2, 3], set(3), 10)).toBeCloseTo(0.5, 12); // 1 / log2(4)
  });

  it('normalizes by the ideal DCG with several relevant documents', () => {
    // relevant at ranks 1 and 3: DCG = 1 + 1/log2(4) = 1.5; ideal = 1 + 1/log2(3)
    expect(ndcgAt([5, 6, 7], set(5, 7), 10)).toBeCloseTo(1.5 / (1 + 1 / Math.log2(3)), 12);
  });

  it('ignores relevant documents beyond k and is 0 with none relevant', () => {
    expect(ndcgAt([0, 1, 2], set(2), 2)).toBe(0);
    expect(ndcgAt([0, 1, 2], set(), 10)).toBe(0);
  });
});

describe('expectedRandomMetrics', () => {
  it('averages the metrics over every rank the single relevant document can take', () => {
    const { mrr, ndcg } = expectedRandomMetrics(3, 10);
    expect(mrr).toBeCloseTo((1 + 1 / 2 + 1 / 3) / 3, 12);
    expect(ndcg).toBeCloseTo((1 + 1 / Math.log2(3) + 1 / Math.log2(4)) / 3, 12);
    expect(expectedRandomMetrics(20, 10).mrr).toBeCloseTo(2.9289682539682538 / 20, 12); // H(10) / 20
  });
});
