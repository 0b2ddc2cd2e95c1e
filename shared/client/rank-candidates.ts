import type { RankedItem, ScoredCandidate } from './rerank-result.js';

export interface RankingOptions {
  readonly topK?: number;
  readonly threshold?: number;
  /** true: triples; false: pairs; undefined: triples where the reply carried the document. */
  readonly includeDocs?: boolean;
}

/**
 * The unified ordering, whatever the server did: one result per index (its best score), scores below
 * `threshold` dropped, score descending (negative scores sort naturally, -2.8 before -3.2) with ties in
 * index order, then the first `topK`.
 */
export function rankCandidates(candidates: readonly ScoredCandidate[], options: RankingOptions = {}): RankedItem[] {
  const best = new Map<number, ScoredCandidate>();
  for (const c of candidates) {
    const seen = best.get(c.index);
    if (!seen || c.score > seen.score)
      best.set(c.index, seen?.document !== undefined && c.document === undefined ? { ...c, document: seen.document } : c);
  }
  const { threshold, topK, includeDocs } = options;
  const ranked = [...best.values()]
    .filter((c) => threshold === undefined || c.score >= threshold)
    .sort((a, b) => b.score - a.score || a.index - b.index);
  const kept = topK === undefined ? ranked : ranked.slice(0, Math.max(0, topK));
  return kept.map(
    (c): RankedItem => (includeDocs !== false && c.document !== undefined ? [c.index, c.score, c.document] : [c.index, c.score]),
  );
}
