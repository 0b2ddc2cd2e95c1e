import { normalizeResults } from '../../shared/core/normalize-results.js';

/**
 * Document positions best first, ranked exactly as the service ranks them (normalizeResults: higher
 * first, ties keep input order, NaN last), so the evaluation measures what clients would receive.
 */
export function rankDocuments(scores: readonly number[]): number[] {
  return normalizeResults(scores, { activation: 'none', topN: undefined, threshold: undefined, documents: undefined }).map((r) => r.index);
}

/** 1 / (1-based rank of the first relevant document) if it is within the top k, else 0. */
export function reciprocalRankAt(ranking: readonly number[], relevant: ReadonlySet<number>, k: number): number {
  const limit = Math.min(k, ranking.length);
  for (let i = 0; i < limit; i++) if (relevant.has(ranking[i]!)) return 1 / (i + 1);
  return 0;
}

/**
 * nDCG@k with binary relevance: DCG = sum over the top k of rel_i / log2(i + 1) (i 1-based), divided by
 * the DCG of the ideal ranking (all relevant documents first). 0 when nothing is relevant.
 */
export function ndcgAt(ranking: readonly number[], relevant: ReadonlySet<number>, k: number): number {
  const limit = Math.min(k, ranking.length);
  let dcg = 0;
  for (let i = 0; i < limit; i++) if (relevant.has(ranking[i]!)) dcg += 1 / Math.log2(i + 2);
  let ideal = 0;
  for (let i = 0; i < Math.min(k, relevant.size); i++) ideal += 1 / Math.log2(i + 2);
  return ideal === 0 ? 0 : dcg / ideal;
}

/**
 * What a uniformly random order scores in expectation with one relevant document among n candidates:
 * the relevant one is at each rank with probability 1/n.
 */
export function expectedRandomMetrics(n: number, k: number): { mrr: number; ndcg: number } {
  let mrr = 0;
  let ndcg = 0;
  for (let rank = 1; rank <= Math.min(k, n); rank++) {
    mrr += 1 / rank / n;
    ndcg += 1 / Math.log2(rank + 1) / n;
  }
  return { mrr, ndcg };
}
