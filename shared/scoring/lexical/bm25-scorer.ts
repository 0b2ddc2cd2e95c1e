import { logisticProbability, type LogisticModel } from '../logistic-model.js';
import type { ScoreBatch, Scorer } from '../../core/scorer.js';
import { defaultBackground } from './background-idf.js';
import { BM25_CALIBRATION } from './bm25-calibration.js';
import { BM25_B, BM25_K1, lexicalFeatureVector, lexicalFeatures, type LexicalFeatures } from './lexical-features.js';
import { tokenizeLexical } from './lexical-tokenizer.js';
import { createStoredAnalysis, digestOf, type LexicalSide, type StoredAnalysis } from '../corpus/stored-analysis.js';

export interface Bm25Parameters {
  /** Term-frequency saturation (default 1.2). 0 = presence only. */
  readonly k1?: number;
  /** Length normalization, 0..1 (default 0.75). 0 = none, 1 = full. */
  readonly b?: number;
}

export interface Bm25ScorerOptions extends Bm25Parameters {
  /** The model id clients name in the `model` field. */
  readonly id: string;
  /** Drop English stopwords from query and documents (default true); see lexical-tokenizer.ts. */
  readonly stopwords?: boolean;
  /**
   * 'background' (default): IDF and average length from the committed background table, and the score is
   * P(relevant) from the fitted lexical logistic model (bm25-calibration.ts) - absolute, in (0, 1), the
   * same for a document whatever else is sent. k1 and b are then the fitted model's (1.2, 0.75).
   * 'candidates': the classic raw BM25 with statistics from the request's own candidates (unbounded,
   * candidate-relative); kept for the eval's baseline and the relevance-set miner.
   */
  readonly statistics?: 'background' | 'candidates';
}

/** A BM25 Scorer; see Bm25ScorerOptions.statistics for what its scores mean. */
export interface Bm25Scorer extends Scorer {
  readonly scoreKind: 'similarity';
  /** False with background statistics (absolute scores); true with request-local statistics. */
  readonly candidateRelative: boolean;
  readonly statistics: 'background' | 'candidates';
  /** Request-independent lexical features of each document (background statistics), for fitted fusions. */
  features(query: string, documents: readonly string[]): LexicalFeatures[];
  /** With background statistics: what is stored of a corpus (term counts and lengths), and the side a hybrid combines. */
  readonly documentAnalysis?: StoredAnalysis;
}

/** Bumped when the lexical tokenizer changes what it makes of a text, so stored term counts are made again. */
const LEXICAL_TOKENIZER_VERSION = 'lexical-tokenizer-v1 nfkc lowercase cjk-bigrams porter2';

const DEFAULT_K1 = BM25_K1;
const DEFAULT_B = BM25_B;

/**
 * Okapi BM25 of every document against the query, over token lists, with the statistics taken from
 * `documents` itself (a rerank request has no corpus):
 *
 *   score(d) = sum over DISTINCT query terms t of  idf(t) * tf(t,d) * (k1 + 1) / (tf(t,d) + k1 * (1 - b + b * |d| / avgdl))
 *   idf(t)   = ln(1 + (N - n(t) + 0.5) / (n(t) + 0.5))        N = documents, n(t) = documents containing t
 *
 * The IDF is Lucene's non-negative variant: Robertson's original ln((N - n + 0.5) / (n + 0.5)) turns
 * negative for a term in more than half the candidates, which on a small candidate set would rank a
 * document that matches a common query term BELOW one that matches nothing. Repeated query terms
 * count once (queries are short; a repeated word is rarely a deliberate weight).
 * Empty documents, and every document when no query term occurs, score exactly 0.
 */
export function bm25Scores(
  queryTerms: readonly string[],
  documents: readonly (readonly string[])[],
  parameters: Bm25Parameters = {},
): number[] {
  const { k1, b } = checkedParameters(parameters);
  const n = documents.length;
  const scores = new Array<number>(n).fill(0);
  const terms = new Set(queryTerms);
  if (n === 0 || terms.size === 0) return scores;

  const frequencies = documents.map((tokens) => {
    const tf = new Map<string, number>();
    for (const token of tokens) if (terms.has(token)) tf.set(token, (tf.get(token) ?? 0) + 1);
    return tf;
  });
  const totalLength = documents.reduce((sum, tokens) => sum + tokens.length, 0);
  if (totalLength === 0) return scores;
  const averageLength = totalLength / n;

  for (const term of terms) {
    const containing = frequencies.reduce((count, tf) => count + (tf.has(term) ? 1 : 0), 0);
    if (containing === 0) continue;
    const idf = Math.log(1 + (n - containing + 0.5) / (containing + 0.5));
    frequencies.forEach((tf, i) => {
      const f = tf.get(term);
      if (f === undefined) return;
      const lengthNorm = 1 - b + (b * documents[i]!.length) / averageLength;
      scores[i]! += (idf * f * (k1 + 1)) / (f + k1 * lengthNorm);
    });
  }
  return scores;
}

function checkedParameters(parameters: Bm25Parameters): { k1: number; b: number } {
  const k1 = parameters.k1 ?? DEFAULT_K1;
  const b = parameters.b ?? DEFAULT_B;
  if (!Number.isFinite(k1) || k1 < 0) throw new RangeError(`BM25 k1 must be a finite number >= 0, got ${k1}`);
  if (!Number.isFinite(b) || b < 0 || b > 1) throw new RangeError(`BM25 b must be within [0, 1], got ${b}`);
  return { k1, b };
}

/**
 * The lexical scorer. With background statistics (default) a score is P(relevant) in (0, 1) from a
 * logistic model over the saturated BM25, query-term coverage and lengths, fitted offline
 * (scripts/eval/fit-fusion.ts); with 'candidates', raw BM25 over the request's candidates (>= 0, unbounded).
 * scoreKind 'similarity' (no sigmoid); tokens = 0 (no model tokens). Deterministic; nothing to load or close.
 */
export function createBm25Scorer(options: Bm25ScorerOptions, calibration: LogisticModel = BM25_CALIBRATION): Bm25Scorer {
  const parameters = checkedParameters(options);
  const tokenizerOptions = { stopwords: options.stopwords ?? true };
  const statistics = options.statistics ?? 'background';
  const features = (query: string, documents: readonly string[]): LexicalFeatures[] => {
    const queryTerms = tokenizeLexical(query, tokenizerOptions);
    const background = defaultBackground();
    return documents.map((document) => lexicalFeatures(queryTerms, tokenizeLexical(document, tokenizerOptions), background));
  };
  const side: LexicalSide = {
    digest: digestOf(LEXICAL_TOKENIZER_VERSION, JSON.stringify(tokenizerOptions)),
    tokenizer: tokenizerOptions,
    background: defaultBackground,
  };
  const documentAnalysis =
    statistics === 'background'
      ? createStoredAnalysis({
          lexical: side,
          combine: (_, f) => logisticProbability(calibration, lexicalFeatureVector(f!, calibration.saturation)),
        })
      : undefined;
  return {
    ...(documentAnalysis ? { documentAnalysis } : {}),
    id: options.id,
    scoreKind: 'similarity',
    // Background statistics: a fitted logistic model's P(relevant); request-local raw BM25 is no probability.
    calibrated: statistics === 'background',
    candidateRelative: statistics === 'candidates',
    statistics,
    features,
    async score(query: string, documents: readonly string[]): Promise<ScoreBatch> {
      if (statistics === 'background') {
        const scores = features(query, documents).map((f) =>
          logisticProbability(calibration, lexicalFeatureVector(f, calibration.saturation)),
        );
        return { scores, tokens: 0 };
      }
      const queryTerms = tokenizeLexical(query, tokenizerOptions);
      const documentTerms = documents.map((document) => tokenizeLexical(document, tokenizerOptions));
      return { scores: bm25Scores(queryTerms, documentTerms, parameters), tokens: 0 };
    },
  };
}
