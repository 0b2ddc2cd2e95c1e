import { describe, expect, it } from 'vitest';
import { bm25Scores, createBm25Scorer } from '../../../../shared/scoring/lexical/index.js';

const ln = Math.log;

describe('bm25Scores', () => {
  it('matches a hand-computed example (k1 = 1.2, b = 0.75)', () => {
    // Prepare: N = 3, lengths 3, 3, 2 -> avgdl = 8/3; "cat" and "dog" each occur in 2 documents
    // -> idf = ln(1 + (3 - 2 + 0.5) / (2 + 0.5)) = ln(1.6).
    const documents = [
      ['cat', 'sat', 'mat'],
      ['dog', 'dog', 'barked'],
      ['cat', 'dog'],
    ];

    // Act
    const scores = bm25Scores(['cat', 'dog'], documents);

    // Assess: length norms 1 - b + b * dl / avgdl = 1.09375 (dl 3) and 0.8125 (dl 2).
    expect(scores[0]).toBeCloseTo((ln(1.6) * 1 * 2.2) / (1 + 1.2 * 1.09375), 9); // 0.447138587822970
    expect(scores[1]).toBeCloseTo((ln(1.6) * 2 * 2.2) / (2 + 1.2 * 1.09375), 9); // 0.624306707526411
    expect(scores[2]).toBeCloseTo((2 * ln(1.6) * 2.2) / (1 + 1.2 * 0.8125), 9); // 1.047096693003158
    expect(scores[0]).toBeCloseTo(0.44713858782297, 9);
    expect(scores[1]).toBeCloseTo(0.624306707526411, 9);
    expect(scores[2]).toBeCloseTo(1.047096693003158, 9);
  });

  it('uses k1 and b as given: b = 0 ignores length, k1 = 0 counts presence only', () => {
    const documents = [['x', 'x', 'x', 'y'], ['x']];
    // idf(x) = ln(1 + 0.5 / 2.5) = ln(1.2) for both settings.
    const noLength = bm25Scores(['x'], documents, { k1: 1, b: 0 });
    expect(noLength[0]).toBeCloseTo((ln(1.2) * 3 * 2) / (3 + 1), 9);
    expect(noLength[1]).toBeCloseTo((ln(1.2) * 1 * 2) / (1 + 1), 9);

    const presence = bm25Scores(['x'], documents, { k1: 0 });
    expect(presence[0]).toBeCloseTo(ln(1.2), 9);
    expect(presence[1]).toBeCloseTo(ln(1.2), 9);
  });

  it('gives rare terms more weight than common ones, and never a negative weight', () => {
    // "common" is in 3 of 4 documents: Robertson's idf would be ln(1.5 / 3.5) < 0.
    const documents = [
      ['common', 'rare'],
      ['common', 'other'],
      ['common', 'filler'],
      ['nothing', 'here'],
    ];
    const scores = bm25Scores(['common', 'rare'], documents);

    expect(scores[0]).toBeGreaterThan(scores[1]!);
    expect(scores[1]).toBeGreaterThan(0); // matching a common term still beats matching nothing
    expect(scores[1]).toBeCloseTo(scores[2]!, 12);
    expect(scores[3]).toBe(0);
    // idf(common) = ln(1 + 1.5 / 3.5); idf(rare) = ln(1 + 3.5 / 1.5); all lengths equal -> norm 1.
    expect(scores[1]).toBeCloseTo((ln(1 + 1.5 / 3.5) * 2.2) / 2.2, 9);
    expect(scores[0]).toBeCloseTo(ln(1 + 1.5 / 3.5) + ln(1 + 3.5 / 1.5), 9);
  });

  it('keeps a term that occurs in every candidate positive (single-document requests still score)', () => {
    const [only] = bm25Scores(['x'], [['x']]);
    expect(only).toBeCloseTo(ln(1 + 0.5 / 1.5), 9);
  });

  it('counts a repeated query term once', () => {
    const documents = [
      ['a', 'b'],
      ['b', 'c'],
    ];
    expect(bm25Scores(['a', 'a', 'a'], documents)).toEqual(bm25Scores(['a'], documents));
  });

  it('scores empty documents, empty queries and no-match queries as exact zeros', () => {
    expect(bm25Scores(['x'], [])).toEqual([]);
    expect(bm25Scores([], [['x'], ['y']])).toEqual([0, 0]);
    expect(bm25Scores(['z'], [['x'], ['y']])).toEqual([0, 0]);
    expect(bm25Scores(['x'], [[], []])).toEqual([0, 0]);
    const scores = bm25Scores(['x'], [[], ['x', 'y']]);
    expect(scores[0]).toBe(0);
    expect(scores[1]).toBeGreaterThan(0);
  });

  it('rejects parameters outside their ranges', () => {
    expect(() => bm25Scores(['x'], [['x']], { k1: -1 })).toThrow(RangeError);
    expect(() => bm25Scores(['x'], [['x']], { b: 1.5 })).toThrow(RangeError);
    expect(() => bm25Scores(['x'], [['x']], { b: Number.NaN })).toThrow(RangeError);
    expect(() => createBm25Scorer({ id: 'bm25', k1: Number.POSITIVE_INFINITY })).toThrow(RangeError);
  });
});

describe('createBm25Scorer with background statistics (the served default)', () => {
  const scorer = createBm25Scorer({ id: 'bm25' });
  const documents = ['requests is an HTTP library for Python', 'a text editor for the terminal', 'an HTTP server written in Go'];

  it('returns P(relevant) in (0, 1), higher for the better match, with no model tokens', async () => {
    const batch = await scorer.score('python http library', documents);
    expect(scorer.statistics).toBe('background');
    expect(scorer.candidateRelative).toBe(false);
    expect(batch.tokens).toBe(0);
    for (const score of batch.scores) expect(score > 0 && score < 1).toBe(true);
    expect(batch.scores[0]).toBeGreaterThan(batch.scores[2]!);
    expect(batch.scores[2]).toBeGreaterThan(batch.scores[1]!);
  });

  it('gives a document the same score whatever the other candidates are', async () => {
    const all = (await scorer.score('python http library', documents)).scores;
    const alone = (await scorer.score('python http library', [documents[0]!])).scores;
    const withOthers = (await scorer.score('python http library', [documents[0]!, 'python python python', 'library'])).scores;
    expect(alone[0]).toBe(all[0]);
    expect(withOthers[0]).toBe(all[0]);
  });

  it('exposes the request-independent features the fitted models read', () => {
    const [features] = scorer.features('python http library', [documents[0]!]);
    expect(features!.coverage).toBe(1);
    expect(features!.idfCoverage).toBe(1);
    expect(features!.queryTerms).toBe(3);
    expect(features!.bm25).toBeGreaterThan(0);
    const [none] = scorer.features('zebra', ['cat']);
    expect(none).toEqual({ bm25: 0, coverage: 0, idfCoverage: 0, rarestMatched: 0, queryTerms: 1, documentTerms: 1 });
  });
});

describe("createBm25Scorer with the candidates' statistics (raw BM25)", () => {
  const scorer = createBm25Scorer({ id: 'bm25', statistics: 'candidates' });

  it('is a similarity scorer with no model tokens', async () => {
    const batch = await scorer.score('python http library', ['requests is an HTTP library for Python', 'a text editor']);

    expect(scorer.id).toBe('bm25');
    expect(scorer.scoreKind).toBe('similarity');
    expect(scorer.candidateRelative).toBe(true); // IDF comes from the candidates: never scored chunk by chunk
    expect(scorer.statistics).toBe('candidates');
    expect(batch.tokens).toBe(0);
    expect(batch.scores).toHaveLength(2);
    expect(batch.scores[0]).toBeGreaterThan(batch.scores[1]!);
    expect(batch.scores[1]).toBe(0);
  });

  it('tokenizes text the same way for query and documents (case, punctuation, NFKC)', async () => {
    const batch = await scorer.score('ＨＴＴＰ/2 Client', ['an http-2 CLIENT', 'a server']);
    // Tokens: query [http, 2, client]; document 0 [http, 2, client] ("an" is a stopword).
    const expected = bm25Scores(['http', '2', 'client'], [['http', '2', 'client'], ['server']]);
    expect(batch.scores).toEqual(expected);
  });

  it('scores CJK text through character bigrams', async () => {
    // Query bigrams: 東京 京の の天 天気. Document 0 shares 東京 の天 天気, document 1 shares の天 天気,
    // document 2 shares no bigram (the lone の is inside different bigrams), document 3 is empty.
    const batch = await scorer.score('東京の天気', ['東京都の天気予報', '京都の天気', '大阪の観光案内', '']);

    expect(batch.scores[0]).toBeGreaterThan(batch.scores[1]!);
    expect(batch.scores[1]).toBeGreaterThan(0);
    expect(batch.scores[2]).toBe(0);
    expect(batch.scores[3]).toBe(0);
  });

  it('returns all zeros when no query term occurs, and for stopword-only queries', async () => {
    expect((await scorer.score('zebra', ['cat', 'dog', 'bird'])).scores).toEqual([0, 0, 0]);
    expect((await scorer.score('the of and', ['the cat', 'of dogs and birds'])).scores).toEqual([0, 0]);
    expect((await scorer.score('anything', [])).scores).toEqual([]);
  });

  it('keeps stopwords when asked to', async () => {
    const withStopwords = createBm25Scorer({ id: 'bm25', stopwords: false, statistics: 'candidates' });
    const batch = await withStopwords.score('the', ['the cat', 'a dog']);
    expect(batch.scores[0]).toBeGreaterThan(0);
    expect(batch.scores[1]).toBe(0);
  });

  it('is deterministic', async () => {
    const documents = ['alpha beta', 'beta gamma gamma', 'delta'];
    const first = await scorer.score('beta gamma', documents);
    const second = await scorer.score('beta gamma', documents);
    expect(second).toEqual(first);
  });
});
