import { describe, expect, it } from 'vitest';
import {
  createDefaultHybridScorer,
  createFittedHybridScorer,
  fusionFeatureVector,
  HYBRID_FEATURE_NAMES,
  hybridFeatureVector,
  isLexicalOrHybrid,
} from '../../../../shared/scoring/hybrid/index.js';
import { createBm25Scorer } from '../../../../shared/scoring/lexical/index.js';
import type { Scorer } from '../../../../shared/core/scorer.js';

/** A per-document similarity model: the cosine is the number after "cos=" in the document. */
const cosineModel: Scorer = {
  id: 'bi',
  scoreKind: 'similarity',
  candidateRelative: false,
  score: async (_query, documents) => ({
    scores: documents.map((d) => Number(/cos=([\d.-]+)/.exec(d)?.[1] ?? 0)),
    tokens: 7 * documents.length,
  }),
};
const lexical = createBm25Scorer({ id: 'bm25' });

describe('createFittedHybridScorer', () => {
  const hybrid = createFittedHybridScorer({ id: 'use-lite-bm25', model: cosineModel, lexical });

  it('scores each document as P(relevant) in (0, 1), independent of the other candidates', async () => {
    const documents = ['python http library cos=0.6', 'bamboo forests cos=0.1', 'http server cos=0.3'];
    const all = await hybrid.score('python http library', documents);
    expect(all.tokens).toBe(21);
    for (const s of all.scores) expect(s > 0 && s < 1).toBe(true);
    expect(all.scores[0]).toBeGreaterThan(all.scores[2]!);
    expect(all.scores[2]).toBeGreaterThan(all.scores[1]!);
    for (let i = 0; i < documents.length; i++) {
      expect((await hybrid.score('python http library', [documents[i]!])).scores[0]).toBe(all.scores[i]);
    }
    expect(hybrid.candidateRelative).toBe(false);
    expect(hybrid.fusion).toBe('logistic');
  });

  it('rises with the cosine when the words are the same', async () => {
    const { scores } = await hybrid.score('python http library', ['python http library cos=0.1', 'python http library cos=0.8']);
    expect(scores[1]).toBeGreaterThan(scores[0]!);
  });

  it('returns no scores for no documents, and treats a NaN cosine as 0', async () => {
    expect(await hybrid.score('q', [])).toEqual({ scores: [], tokens: 0 });
    const constant = (value: number) =>
      createFittedHybridScorer({ id: 'h', model: { ...cosineModel, score: async () => ({ scores: [value], tokens: 1 }) }, lexical });
    const nan = await constant(Number.NaN).score('q', ['d']);
    const zero = await constant(0).score('q', ['d']);
    expect(Number.isFinite(nan.scores[0])).toBe(true);
    expect(nan.scores[0]).toBe(zero.scores[0]);
  });
});

describe('createDefaultHybridScorer', () => {
  it('is the fitted hybrid for a per-document similarity model, min-max fusion for a logit model', () => {
    const fitted = createDefaultHybridScorer({ id: 'h', model: cosineModel, lexical });
    expect(fitted.candidateRelative).toBe(false);
    const crossEncoder: Scorer = { ...cosineModel, scoreKind: 'logit' };
    const minmax = createDefaultHybridScorer({ id: 'h', model: crossEncoder, lexical });
    expect(minmax.candidateRelative).toBe(true);
    expect(isLexicalOrHybrid(fitted)).toBe(true);
    expect(isLexicalOrHybrid(minmax)).toBe(true);
    expect(isLexicalOrHybrid(lexical)).toBe(true);
    expect(isLexicalOrHybrid(cosineModel)).toBe(false);
  });
});

describe('fusionFeatureVector', () => {
  const f = createBm25Scorer({ id: 'bm25' }).features('python http library', ['requests is an http library for python'])[0]!;

  it('gives the hybrid vector for the hybrid feature names, in the order a fusion lists them', () => {
    expect(fusionFeatureVector(HYBRID_FEATURE_NAMES, f, 0.4, 2)).toEqual(hybridFeatureVector(f, 0.4, 2));
    expect(fusionFeatureVector(['cosine', 'coverage'], f, 0.4, 2)).toEqual([0.4, f.coverage]);
  });

  it("gives bm25Logit as the served bm25 model's logit, whose sigmoid is its score", async () => {
    const [logit] = fusionFeatureVector(['bm25Logit'], f, 0, 1);
    const { scores } = await createBm25Scorer({ id: 'bm25' }).score('python http library', ['requests is an http library for python']);
    expect(1 / (1 + Math.exp(-logit!))).toBeCloseTo(scores[0]!, 12);
  });

  it('refuses a feature it does not know', () => {
    expect(() => fusionFeatureVector(['cosineCubed'], f, 0.4, 2)).toThrow(/unknown fusion feature 'cosineCubed'/);
  });
});
