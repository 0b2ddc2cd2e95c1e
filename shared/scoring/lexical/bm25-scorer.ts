import type { ScoreBatch, Scorer } from '../../core/scorer.js';
import { tokenizeLexical } from './lexical-tokenizer.js';

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
}

/**
 * A BM25 Scorer. Its scores are relative to the candidate set: IDF and average length come from the
 * documents of the same call, so the same document can score differently in another call.
 */
export interface Bm25Scorer extends Scorer {
  readonly scoreKind: 'similarity';
  /** Marks scorers whose scores depend on the whole candidate set (see bm25Scores). */
  readonly candidateRelative: true;
}

const DEFAULT_K1 = 1.2;
const DEFAULT_B = 0.75;

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
export function bm25Scores(queryTerms: readonly string[], documents: readonly (readonly string[])[], parameters: Bm25Parameters = {}): number[] {
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
 * BM25 over the request's own candidates (see bm25Scores), with the tokenizer of lexical-tokenizer.ts.
 * scoreKind 'similarity' (scores are >= 0 and unbounded: no sigmoid); tokens = 0 (no model tokens).
 * Deterministic and synchronous inside; nothing to load or close.
 */
export function createBm25Scorer(options: Bm25ScorerOptions): Bm25Scorer {
  const parameters = checkedParameters(options);
  const tokenizerOptions = { stopwords: options.stopwords ?? true };
  return {
    id: options.id,
    scoreKind: 'similarity',
    candidateRelative: true,
    async score(query: string, documents: readonly string[]): Promise<ScoreBatch> {
      const queryTerms = tokenizeLexical(query, tokenizerOptions);
      const documentTerms = documents.map((document) => tokenizeLexical(document, tokenizerOptions));
      return { scores: bm25Scores(queryTerms, documentTerms, parameters), tokens: 0 };
    },
  };
}
