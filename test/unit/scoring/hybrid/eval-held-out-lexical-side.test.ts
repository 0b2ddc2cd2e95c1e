import { describe, expect, it } from 'vitest';
import { backgroundTable } from '../../../../scripts/eval/background-table.js';
import { fitBm25Calibration } from '../../../../scripts/eval/fit-bm25-calibration.js';
import { fitLexicalSideWithout, lexicalFeaturesUnder, type SourceQuery } from '../../../../scripts/eval/held-out-lexical-side.js';
import { seededRandom } from '../../../../scripts/eval/seeded-random.js';
import { fusionFeatureVector } from '../../../../shared/scoring/hybrid/fusion-features.js';
import { backgroundStatistics } from '../../../../shared/scoring/lexical/background-idf.js';
import { BM25_CALIBRATION } from '../../../../shared/scoring/lexical/bm25-calibration.js';
import { lexicalFeatureVector } from '../../../../shared/scoring/lexical/lexical-features.js';
import { logisticProbability } from '../../../../shared/scoring/logistic-model.js';

/** Letters only, so the stemmer leaves them whole: word n of a source's own vocabulary. */
const word = (source: string, n: number): string =>
  `${source}${'bcdfghjklmnpqrstvwxz'[n % 20]}${'bcdfghjklmnpqrstvwxz'[Math.floor(n / 20) % 20]}x`;

/**
 * A source of `count` queries of 3 words, 8 candidates each. The relevant one holds 2 of the query's words
 * among filler, a negative 0 or 1 of them: lexical overlap is telling but not perfect.
 */
function source(name: string, count: number, seed: number): SourceQuery[] {
  const random = seededRandom(seed);
  const pick = (): string => word(name, Math.floor(random() * 300));
  return Array.from({ length: count }, (_, q) => {
    const terms = [pick(), pick(), pick()];
    const filler = (n: number): string[] => Array.from({ length: n }, pick);
    const relevant = Math.floor(random() * 8);
    const documents = Array.from({ length: 8 }, (_, i) => {
      const matched = i === relevant ? terms.slice(0, 2) : terms.slice(0, Math.floor(random() * 2));
      return [...matched, ...filler(4 + Math.floor(random() * 6))].join(' ');
    });
    return { source: name, query: `${terms.join(' ')} q${q}`, documents, relevant };
  });
}

const idfDocuments = (queries: readonly SourceQuery[]): Map<string, string[]> => {
  const bySource = new Map<string, string[]>();
  for (const q of queries) bySource.set(q.source, [...(bySource.get(q.source) ?? []), ...q.documents]);
  return bySource;
};

describe('nested leave-one-source-out: bm25 refitted without the held-out source', () => {
  const data = [...source('deb', 40, 1), ...source('inf', 40, 2), ...source('wor', 40, 3)];

  it('is the same fit whatever the held-out source holds (its labels and documents are never read)', () => {
    // Arrange: the held-out source replaced by different queries, documents and labels
    const changed = [
      ...data.filter((q) => q.source !== 'wor'),
      ...source('wor', 55, 99).map((q) => ({ ...q, relevant: (q.relevant + 3) % 8 })),
    ];

    // Act
    const a = fitLexicalSideWithout('wor', data, idfDocuments(data));
    const b = fitLexicalSideWithout('wor', changed, idfDocuments(changed));

    // Assess
    expect(b.bm25).toEqual(a.bm25);
    expect(b.idfDocuments).toBe(a.idfDocuments);
    const probe = `${word('wor', 5)} ${word('deb', 5)} ${word('inf', 7)}`;
    expect(b.background.idf(word('deb', 5))).toBe(a.background.idf(word('deb', 5)));
    expect(lexicalFeaturesUnder(b, probe, data[0]!.documents)).toEqual(lexicalFeaturesUnder(a, probe, data[0]!.documents));
  });

  it("reads the held-out source's words as unseen, as the served table reads a man page's", () => {
    const withAll = backgroundStatistics(backgroundTable(data.flatMap((q) => q.documents)));
    const fold = fitLexicalSideWithout('wor', data, idfDocuments(data));
    const heldOutWord = data.find((q) => q.source === 'wor')!.query.split(' ')[0]!;
    const unseen = 'zzzqqqx';

    expect(fold.idfDocuments).toBe(new Set(data.filter((q) => q.source !== 'wor').flatMap((q) => q.documents)).size);
    expect(fold.background.idf(heldOutWord)).toBe(fold.background.idf(unseen));
    expect(withAll.idf(heldOutWord)).toBeLessThan(withAll.idf(unseen));
  });

  it('fits a bm25 that ranks a held-out source well above chance, as the served recipe does', () => {
    const fold = fitLexicalSideWithout('wor', data, idfDocuments(data));
    const held = data.filter((q) => q.source === 'wor');
    const reciprocal = held.map((q) => {
      const scores = lexicalFeaturesUnder(fold, q.query, q.documents).map((f) =>
        logisticProbability(fold.bm25, lexicalFeatureVector(f, fold.bm25.saturation)),
      );
      return 1 / (1 + scores.filter((s, i) => i !== q.relevant && s >= scores[q.relevant]!).length);
    });
    const mrr = reciprocal.reduce((s, v) => s + v, 0) / reciprocal.length;
    const chance = [1, 2, 3, 4, 5, 6, 7, 8].reduce((s, r) => s + 1 / r, 0) / 8;

    expect(fold.fit.cvMrr).toBeGreaterThan(chance + 0.2);
    expect(mrr).toBeGreaterThan(chance + 0.2);
    expect(fold.bm25.fittedOn).toContain('without wor');
  });

  it('refuses to fit bm25 on fewer queries than folds', () => {
    expect(() =>
      fitBm25Calibration(
        data.slice(0, 2).map((q) => ({
          lexical: lexicalFeaturesUnder(fitLexicalSideWithout('wor', data, idfDocuments(data)), q.query, q.documents),
          relevant: q.relevant,
        })),
      ),
    ).toThrow(RangeError);
  });
});

describe("fusionFeatureVector's bm25Logit", () => {
  const side = {
    background: backgroundStatistics(backgroundTable(['python http library requests', 'python web framework', 'http client for python'])),
  };
  const [features] = lexicalFeaturesUnder(side, 'python http library', ['an http library for python']);

  it("is the served bm25's logit unless a fold's bm25 is given", () => {
    const other = { ...BM25_CALIBRATION, weights: BM25_CALIBRATION.weights.map((w) => w * 2), bias: BM25_CALIBRATION.bias + 1 };
    const [served] = fusionFeatureVector(['bm25Logit'], features!, 0.5, 1);
    const [fold] = fusionFeatureVector(['bm25Logit'], features!, 0.5, 1, other);
    const sigmoid = (z: number): number => 1 / (1 + Math.exp(-z));

    expect(sigmoid(served!)).toBeCloseTo(
      logisticProbability(BM25_CALIBRATION, lexicalFeatureVector(features!, BM25_CALIBRATION.saturation)),
      12,
    );
    expect(sigmoid(fold!)).toBeCloseTo(logisticProbability(other, lexicalFeatureVector(features!, other.saturation)), 12);
    expect(fold).not.toBeCloseTo(served!, 3);
  });
});
