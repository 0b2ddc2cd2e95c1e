import { describe, expect, it } from 'vitest';
import { competitionRanks, createHybridScorer, fuseMinMax, fuseRrf, minMaxNormalize } from '../../../../shared/scoring/hybrid/index.js';
import type { Scorer } from '../../../../shared/core/scorer.js';

/** A scorer that returns fixed scores (or scores computed from each document) and records its calls. */
function fakeScorer(
  id: string,
  scoreKind: Scorer['scoreKind'],
  scores: readonly number[] | ((document: string) => number),
  tokens = 0,
): Scorer & { calls: number } {
  const fake = {
    id,
    scoreKind,
    calls: 0,
    async score(_query: string, documents: readonly string[]) {
      fake.calls++;
      return { scores: typeof scores === 'function' ? documents.map(scores) : [...scores], tokens };
    },
  };
  return fake;
}

const docs = (n: number): string[] => Array.from({ length: n }, (_, i) => `document ${i}`);

describe('minMaxNormalize', () => {
  it('rescales to [0, 1] over the finite scores', () => {
    expect(minMaxNormalize([2, 6, 4])).toEqual([0, 1, 0.5]);
    expect(minMaxNormalize([-3, -1])).toEqual([0, 1]);
  });

  it('maps constant scores to 0 without dividing by zero', () => {
    expect(minMaxNormalize([5, 5, 5])).toEqual([0, 0, 0]);
    expect(minMaxNormalize([7])).toEqual([0]);
    expect(minMaxNormalize([])).toEqual([]);
  });

  it('treats NaN and -Infinity as the worst score, +Infinity as the best', () => {
    expect(minMaxNormalize([Number.NaN, 1, 3, Infinity, -Infinity])).toEqual([0, 0, 1, 1, 0]);
    expect(minMaxNormalize([Number.NaN, Number.NaN])).toEqual([0, 0]);
  });
});

describe('competitionRanks', () => {
  it('ranks best = 1 and lets ties share the best rank', () => {
    expect(competitionRanks([0.2, 0.9, 0.2, 0.5])).toEqual([3, 1, 3, 2]);
    expect(competitionRanks([0, 0, 0])).toEqual([1, 1, 1]);
    expect(competitionRanks([Number.NaN, 1, -5])).toEqual([3, 1, 2]);
  });
});

describe('fuseMinMax / fuseRrf', () => {
  it('computes the convex combination of min-max-normalized scores', () => {
    // minmax([1, 3, 2]) = [0, 1, 0.5]; minmax([4, 0, 2]) = [1, 0, 0.5]
    expect(fuseMinMax([1, 3, 2], [4, 0, 2], 0.25)).toEqual([0.75, 0.25, 0.5]);
    expect(fuseMinMax([1, 3, 2], [4, 0, 2], 1)).toEqual([0, 1, 0.5]);
    expect(fuseMinMax([1, 3, 2], [4, 0, 2], 0)).toEqual([1, 0, 0.5]);
  });

  it('computes weighted reciprocal rank fusion with k = 60', () => {
    // ranks a: [1, 3, 2]; ranks b (ties share): [3, 1, 1]
    const fused = fuseRrf([0.9, 0.1, 0.5], [1, 2, 2], 0.5);
    expect(fused[0]).toBeCloseTo(0.5 / 61 + 0.5 / 63, 12);
    expect(fused[1]).toBeCloseTo(0.5 / 63 + 0.5 / 61, 12);
    expect(fused[2]).toBeCloseTo(0.5 / 62 + 0.5 / 61, 12);
    const weighted = fuseRrf([0.9, 0.1, 0.5], [1, 2, 2], 0.8);
    expect(weighted[1]).toBeCloseTo(0.8 / 63 + 0.2 / 61, 12);
  });

  it('rejects lists of different lengths', () => {
    expect(() => fuseMinMax([1], [1, 2], 0.5)).toThrow(RangeError);
    expect(() => fuseRrf([1], [1, 2], 0.5)).toThrow(RangeError);
  });
});

describe('createHybridScorer', () => {
  it('fuses min-max-normalized similarity scores, keeping document order', async () => {
    const model = fakeScorer('bi', 'similarity', [1, 3, 2], 17);
    const lexical = fakeScorer('bm25', 'similarity', [4, 0, 2]);
    const hybrid = createHybridScorer({ id: 'hybrid', model, lexical, weight: 0.25 });

    const batch = await hybrid.score('q', docs(3));

    expect(batch.scores).toEqual([0.75, 0.25, 0.5]);
    expect(batch.tokens).toBe(17);
    expect(hybrid.scoreKind).toBe('similarity');
    expect(hybrid.candidateRelative).toBe(true);
    expect(hybrid.fusion).toBe('minmax');
    expect(hybrid.weight).toBe(0.25);
  });

  it('applies a sigmoid to logit models before min-max', async () => {
    // sigmoid([0, ln 3, -ln 3]) = [0.5, 0.75, 0.25] -> minmax [0.5, 1, 0]; lexical constant -> 0.
    const model = fakeScorer('ce', 'logit', [0, Math.log(3), -Math.log(3)]);
    const lexical = fakeScorer('bm25', 'similarity', [0, 0, 0]);
    const batch = await createHybridScorer({ id: 'h', model, lexical }).score('q', docs(3));

    expect(batch.scores[0]).toBeCloseTo(0.25, 12);
    expect(batch.scores[1]).toBeCloseTo(0.5, 12);
    expect(batch.scores[2]).toBeCloseTo(0, 12);
  });

  it('uses the sigmoid only for logit models: min-max of probabilities differs from min-max of logits', async () => {
    const logits = [-4, 0, 4.5];
    const lexical = fakeScorer('bm25', 'similarity', [0, 1, 0]);
    const asLogit = await createHybridScorer({ id: 'h', model: fakeScorer('m', 'logit', logits), lexical }).score('q', docs(3));
    const asSimilarity = await createHybridScorer({ id: 'h', model: fakeScorer('m', 'similarity', logits), lexical }).score('q', docs(3));

    const s = (x: number): number => 1 / (1 + Math.exp(-x));
    expect(asLogit.scores[1]).toBeCloseTo(0.5 * ((s(0) - s(-4)) / (s(4.5) - s(-4))) + 0.5, 12);
    expect(asSimilarity.scores[1]).toBeCloseTo(0.5 * (4 / 8.5) + 0.5, 12);
  });

  it('fuses with reciprocal rank fusion when asked', async () => {
    const model = fakeScorer('ce', 'logit', [2, -1, 0.5]);
    const lexical = fakeScorer('bm25', 'similarity', [1, 2, 2]);
    const batch = await createHybridScorer({ id: 'h', model, lexical, fusion: 'rrf' }).score('q', docs(3));

    expect(batch.scores).toEqual(fuseRrf([2, -1, 0.5], [1, 2, 2], 0.5));
    expect(batch.scores[0]).toBeCloseTo(0.5 / 61 + 0.5 / 63, 12);
  });

  it('handles constant scores and single documents without NaN', async () => {
    for (const fusion of ['minmax', 'rrf'] as const) {
      const constant = createHybridScorer({
        id: 'h',
        fusion,
        model: fakeScorer('m', 'logit', [3, 3, 3]),
        lexical: fakeScorer('l', 'similarity', [0, 0, 0]),
      });
      const batch = await constant.score('q', docs(3));
      expect(batch.scores.every(Number.isFinite)).toBe(true);
      expect(new Set(batch.scores).size).toBe(1); // nothing separates them: ties keep input order downstream

      const single = createHybridScorer({
        id: 'h',
        fusion,
        model: fakeScorer('m', 'logit', [9]),
        lexical: fakeScorer('l', 'similarity', [4]),
      });
      expect((await single.score('q', ['only'])).scores.every(Number.isFinite)).toBe(true);
    }
  });

  it('lets the varying component decide when the other is constant', async () => {
    const hybrid = createHybridScorer({
      id: 'h',
      model: fakeScorer('m', 'similarity', [0.3, 0.3, 0.3]),
      lexical: fakeScorer('l', 'similarity', [1, 5, 3]),
    });
    expect((await hybrid.score('q', docs(3))).scores).toEqual([0, 0.5, 0.25]);
  });

  it('keeps each score at its document index', async () => {
    // Both components score by the number in the document; documents arrive in scrambled order.
    const value = (document: string): number => Number(document.split(' ')[1]);
    for (const fusion of ['minmax', 'rrf'] as const) {
      const hybrid = createHybridScorer({
        id: 'h',
        fusion,
        model: fakeScorer('m', 'similarity', value),
        lexical: fakeScorer('l', 'similarity', value),
      });
      const documents = ['doc 3', 'doc 0', 'doc 4', 'doc 1', 'doc 2'];
      const { scores } = await hybrid.score('q', documents);
      const order = scores
        .map((score, index) => ({ score, index }))
        .sort((a, b) => b.score - a.score)
        .map((r) => documents[r.index]);
      expect(order).toEqual(['doc 4', 'doc 3', 'doc 2', 'doc 1', 'doc 0']);
    }
  });

  it("treats a NaN model score as that component's worst, so fused scores stay finite", async () => {
    const hybrid = createHybridScorer({
      id: 'h',
      model: fakeScorer('m', 'logit', [Number.NaN, 1, -1]),
      lexical: fakeScorer('l', 'similarity', [1, 1, 0]),
    });
    const { scores } = await hybrid.score('q', docs(3));
    expect(scores).toEqual([0.5, 1, 0]);
  });

  it('returns no scores for no documents without calling the components', async () => {
    const model = fakeScorer('m', 'logit', []);
    const lexical = fakeScorer('l', 'similarity', []);
    const batch = await createHybridScorer({ id: 'h', model, lexical }).score('q', []);
    expect(batch).toEqual({ scores: [], tokens: 0 });
    expect(model.calls + lexical.calls).toBe(0);
  });

  it('fails loudly when a component returns the wrong number of scores', async () => {
    const hybrid = createHybridScorer({ id: 'h', model: fakeScorer('m', 'logit', [1]), lexical: fakeScorer('l', 'similarity', [1, 2]) });
    await expect(hybrid.score('q', docs(2))).rejects.toThrow(/returned 1 scores for 2 documents/);
  });

  it('rejects weights outside [0, 1] and unknown fusion rules', () => {
    const model = fakeScorer('m', 'logit', []);
    const lexical = fakeScorer('l', 'similarity', []);
    expect(() => createHybridScorer({ id: 'h', model, lexical, weight: 1.5 })).toThrow(RangeError);
    expect(() => createHybridScorer({ id: 'h', model, lexical, weight: Number.NaN })).toThrow(RangeError);
    expect(() => createHybridScorer({ id: 'h', model, lexical, fusion: 'sum' as 'rrf' })).toThrow(RangeError);
  });
});
