import type { BackgroundStatistics } from './background-idf.js';

/** What the lexical side knows about one (query, document) pair, from the pair and the fixed background alone. */
export interface LexicalFeatures {
  /** Okapi BM25 (k1, b as in bm25Scores) with IDF and average length from the background table; >= 0, unbounded. */
  readonly bm25: number;
  /** Share of the distinct query terms that occur in the document, 0..1. */
  readonly coverage: number;
  /** The same share weighted by IDF (a matched rare word counts more than a matched common one), 0..1. */
  readonly idfCoverage: number;
  /** 1 when the query's rarest term (highest IDF) occurs in the document, else 0. */
  readonly rarestMatched: number;
  /** Distinct query terms. */
  readonly queryTerms: number;
  /** Document length in tokens. */
  readonly documentTerms: number;
}

export const BM25_K1 = 1.2;
export const BM25_B = 0.75;

/** Features of one pair; token lists come from tokenizeLexical. No query term: all zeros. */
export function lexicalFeatures(
  queryTerms: readonly string[],
  documentTerms: readonly string[],
  background: BackgroundStatistics,
): LexicalFeatures {
  const terms = [...new Set(queryTerms)];
  const wanted = new Set(terms);
  const tf = new Map<string, number>();
  for (const token of documentTerms) if (wanted.has(token)) tf.set(token, (tf.get(token) ?? 0) + 1);
  return lexicalFeaturesFromCounts(
    queryIdfs(terms, background),
    terms.map((t) => tf.get(t) ?? 0),
    documentTerms.length,
    background.averageLength,
  );
}

/** The background IDF of each distinct query term, in order: computed once per query, not per document. */
export const queryIdfs = (distinctTerms: readonly string[], background: BackgroundStatistics): number[] =>
  distinctTerms.map((t) => background.idf(t));

/**
 * The feature arithmetic, from the distinct query terms' IDFs and their counts in the document (0 = absent) and the
 * document's length: what lexicalFeatures computes from token lists, and a stored corpus shard from its postings.
 */
export function lexicalFeaturesFromCounts(
  idfs: readonly number[],
  counts: ArrayLike<number>,
  documentLength: number,
  averageLength: number,
): LexicalFeatures {
  const lengthNorm = 1 - BM25_B + (BM25_B * documentLength) / averageLength;
  let bm25 = 0;
  let matchedIdf = 0;
  let totalIdf = 0;
  let rarestIdf = -1;
  let rarestMatched = 0;
  let matched = 0;
  for (let i = 0; i < idfs.length; i++) {
    const idf = idfs[i]!;
    const f = counts[i]!;
    totalIdf += idf;
    if (idf > rarestIdf) {
      rarestIdf = idf;
      rarestMatched = f > 0 ? 1 : 0;
    }
    if (f === 0) continue;
    matched++;
    matchedIdf += idf;
    bm25 += (idf * f * (BM25_K1 + 1)) / (f + BM25_K1 * lengthNorm);
  }
  return {
    bm25,
    coverage: idfs.length === 0 ? 0 : matched / idfs.length,
    idfCoverage: totalIdf === 0 ? 0 : matchedIdf / totalIdf,
    rarestMatched,
    queryTerms: idfs.length,
    documentTerms: documentLength,
  };
}

/** Names of lexicalFeatureVector's entries, in order. */
export const LEXICAL_FEATURE_NAMES = [
  'bm25Saturated',
  'logBm25',
  'coverage',
  'idfCoverage',
  'rarestMatched',
  'logQueryTerms',
  'logDocumentTerms',
] as const;

/**
 * The lexical inputs of the fitted logistic models. BM25 is saturated as s / (s + k) so one very long
 * or very repetitive match cannot dominate (log(1 + s) lets the fit choose how much to saturate); lengths enter as logarithms.
 */
export function lexicalFeatureVector(f: LexicalFeatures, saturation: number): number[] {
  return [
    f.bm25 / (f.bm25 + saturation),
    Math.log1p(f.bm25),
    f.coverage,
    f.idfCoverage,
    f.rarestMatched,
    Math.log1p(f.queryTerms),
    Math.log1p(f.documentTerms),
  ];
}
