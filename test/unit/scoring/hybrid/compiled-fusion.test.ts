import { describe, expect, it } from 'vitest';
import { BM25_CALIBRATION } from '../../../../shared/scoring/lexical/bm25-calibration.js';
import type { LexicalFeatures } from '../../../../shared/scoring/lexical/lexical-features.js';
import { logisticProbability, type LogisticModel } from '../../../../shared/scoring/logistic-model.js';
import { compileFusion } from '../../../../shared/scoring/hybrid/compiled-fusion.js';
import { FUSION_FEATURE_NAMES, fusionFeatureVector } from '../../../../shared/scoring/hybrid/fusion-features.js';
import { USE_LITE_BM25_FUSION } from '../../../../shared/scoring/hybrid/use-lite-fusion.js';

/** Deterministic pseudo-random pairs: matched and unmatched documents, short and long, positive and negative cosines. */
function pairs(n: number): { cosine: number; f: LexicalFeatures }[] {
  let seed = 7;
  const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
  return Array.from({ length: n }, (_, i) => {
    const matched = i % 3 !== 0;
    const bm25 = matched ? next() * 25 : 0;
    return {
      cosine: next() * 2 - 1,
      f: {
        bm25,
        coverage: matched ? next() : 0,
        idfCoverage: matched ? next() : 0,
        rarestMatched: matched && next() > 0.5 ? 1 : 0,
        queryTerms: 1 + Math.floor(next() * 9),
        documentTerms: Math.floor(next() * 400),
      },
    };
  });
}

describe('compileFusion', () => {
  const every: LogisticModel = {
    features: [...FUSION_FEATURE_NAMES],
    weights: FUSION_FEATURE_NAMES.map((_, i) => (i % 2 === 0 ? 0.7 : -0.3) * (i + 1)),
    bias: -1.25,
    saturation: 3.5,
    fittedOn: 'test',
  };
  it.each([
    ['the served default fusion (use-lite-bm25)', USE_LITE_BM25_FUSION],
    ['a fusion naming every feature, bm25Logit too', every],
  ])('gives exactly the double logisticProbability(fusionFeatureVector(...)) gives: %s', (_name, model) => {
    const fused = compileFusion(model);
    for (const { cosine, f } of pairs(2_000)) {
      expect(fused(cosine, f)).toBe(
        logisticProbability(model, fusionFeatureVector(model.features, f, cosine, model.saturation, BM25_CALIBRATION)),
      );
    }
  });

  it('refuses a fusion it does not know, as fusionFeatureVector does', () => {
    expect(() => compileFusion({ ...every, features: ['cosine', 'pagerank'], weights: [1, 1] })).toThrow(
      /unknown fusion feature 'pagerank'/,
    );
    expect(() => compileFusion({ ...every, weights: [1] })).toThrow(RangeError);
  });
});
