import { describe, expect, it } from 'vitest';
import { normalizeResults } from '../../../shared/core/normalize-results.js';
import { sigmoid } from '../../../shared/core/score-activation.js';

const docs = (n: number) => Array.from({ length: n }, (_, i) => ({ text: `doc ${i}` }));
const base = { activation: 'none' as const, topN: undefined, threshold: undefined, documents: undefined };

describe('normalizeResults', () => {
  it('sorts by score descending and keeps original indices', () => {
    const results = normalizeResults([0.1, 0.9, 0.5], base);
    expect(results).toEqual([
      { index: 1, score: 0.9 },
      { index: 2, score: 0.5 },
      { index: 0, score: 0.1 },
    ]);
  });

  it('breaks ties by input index, stably', () => {
    const results = normalizeResults([0.5, 0.7, 0.5, 0.7, 0.5], base);
    expect(results.map((r) => r.index)).toEqual([1, 3, 0, 2, 4]);
  });

  it('orders negative logits with the least negative first', () => {
    const results = normalizeResults([-3.2031, -2.8233, -2.7788], base);
    expect(results.map((r) => r.index)).toEqual([2, 1, 0]);
    expect(results[0]?.score).toBe(-2.7788);
  });

  it('ranks NaN last without scrambling the others and reports a finite worst score', () => {
    const results = normalizeResults([0.2, Number.NaN, 0.8, Number.NaN, 0.5], base);
    expect(results.map((r) => r.index)).toEqual([2, 4, 0, 1, 3]);
    expect(results.every((r) => Number.isFinite(r.score))).toBe(true);
    expect(results[3]?.score).toBe(-Number.MAX_VALUE);
  });

  it('reports NaN as 0 under sigmoid and never lets it pass a threshold', () => {
    const sig = normalizeResults([Number.NaN, 2], { ...base, activation: 'sigmoid' });
    expect(sig).toEqual([
      { index: 1, score: sigmoid(2) },
      { index: 0, score: 0 },
    ]);
    const filtered = normalizeResults([Number.NaN, 2], { ...base, threshold: -1e9 });
    expect(filtered.map((r) => r.index)).toEqual([1]);
  });

  it('clamps infinities to finite numbers so the body stays valid JSON', () => {
    const results = normalizeResults([Infinity, -Infinity, 0], base);
    expect(results).toEqual([
      { index: 0, score: Number.MAX_VALUE },
      { index: 2, score: 0 },
      { index: 1, score: -Number.MAX_VALUE },
    ]);
    expect(JSON.parse(JSON.stringify(results))).toEqual(results);
  });

  it('applies sigmoid before sorting, keeping the logit order', () => {
    const results = normalizeResults([-1, 3, 0], { ...base, activation: 'sigmoid' });
    expect(results.map((r) => r.index)).toEqual([1, 2, 0]);
    expect(results[1]?.score).toBeCloseTo(0.5, 12);
    expect(results.every((r) => r.score >= 0 && r.score <= 1)).toBe(true);
  });

  it.each([
    [undefined, 4],
    [0, 0],
    [2, 2],
    [4, 4],
    [99, 4],
  ])('top_n %s returns %i results', (topN, expected) => {
    expect(normalizeResults([0.4, 0.3, 0.2, 0.1], { ...base, topN })).toHaveLength(expected);
  });

  it('top_n keeps the best, not the first', () => {
    expect(normalizeResults([0.1, 0.4, 0.3, 0.2], { ...base, topN: 2 }).map((r) => r.index)).toEqual([1, 2]);
  });

  it('threshold keeps scores at or above it, then top_n applies', () => {
    const results = normalizeResults([0.1, 0.5, 0.7, 0.4], { ...base, threshold: 0.4, topN: 2 });
    expect(results.map((r) => r.index)).toEqual([2, 1]);
    expect(normalizeResults([0.1, 0.5, 0.7, 0.4], { ...base, threshold: 0.4 }).map((r) => r.index)).toEqual([2, 1, 3]);
  });

  it('threshold is compared with the activated score', () => {
    const results = normalizeResults([-2, 0, 2], { ...base, activation: 'sigmoid', threshold: 0.5 });
    expect(results.map((r) => r.index)).toEqual([2, 1]);
  });

  it('includes documents on every result when given, and the key is absent otherwise', () => {
    const withDocs = normalizeResults([0.2, 0.9], { ...base, documents: docs(2) });
    expect(withDocs).toEqual([
      { index: 1, score: 0.9, document: { text: 'doc 1' } },
      { index: 0, score: 0.2, document: { text: 'doc 0' } },
    ]);
    const without = normalizeResults([0.2, 0.9], base);
    expect(without.every((r) => !('document' in r))).toBe(true);
  });

  it('keeps duplicates as separate results with their own indices', () => {
    const results = normalizeResults([0.5, 0.5, 0.5], { ...base, documents: [{ text: 'same' }, { text: 'same' }, { text: 'same' }] });
    expect(results.map((r) => r.index)).toEqual([0, 1, 2]);
  });

  it('returns an empty list for no scores', () => {
    expect(normalizeResults([], base)).toEqual([]);
  });
});
