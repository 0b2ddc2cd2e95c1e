import { bm25Scores } from '../../shared/scoring/lexical/bm25-scorer.js';
import { tokenizeLexical } from '../../shared/scoring/lexical/lexical-tokenizer.js';
import { hashSeed, seededRandom, shuffled } from './seeded-random.js';

/**
 * The committed evaluation sets were mined with the unstemmed analyzer; mining keeps it, so a change
 * to the served analysis (stemming) is measured on the same candidates as before it.
 */
export const UNSTEMMED = { stem: false } as const;

/** A query and the pool index of its one relevant document. */
export interface PoolQuery {
  readonly id: string;
  readonly query: string;
  readonly relevant: number;
  /** The text BM25 mines negatives with; default the query. */
  readonly mineWith?: string;
}

export interface MinedQuery extends PoolQuery {
  /** Pool indices of the candidates, shuffled; the relevant one is among them. */
  readonly candidates: number[];
}

export interface MiningStats {
  /** Negatives that had to be random because too few pool documents share a query term. */
  randomFilledNegatives: number;
}

/**
 * Hard negatives for each query: the other pool documents BM25 ranks highest for it (IDF over the whole
 * pool), filled with random pool documents when too few share a query term; the candidates are then
 * shuffled with a per-query seeded PRNG so the relevant one sits anywhere. Deterministic for a seed.
 */
export function mineCandidates(
  pool: readonly string[],
  queries: readonly PoolQuery[],
  negativeCount: number,
  seed: number,
  stats: MiningStats = { randomFilledNegatives: 0 },
): MinedQuery[] {
  if (pool.length <= negativeCount) throw new Error(`only ${pool.length} pool documents; need more than ${negativeCount}`);
  const poolTerms = pool.map((d) => tokenizeLexical(d, UNSTEMMED));
  return queries.map((q) => {
    const scores = bm25Scores(tokenizeLexical(q.mineWith ?? q.query, UNSTEMMED), poolTerms);
    const others = pool.map((_, i) => i).filter((i) => i !== q.relevant);
    const negatives = others
      .filter((i) => scores[i]! > 0)
      .sort((a, b) => scores[b]! - scores[a]! || a - b)
      .slice(0, negativeCount);
    if (negatives.length < negativeCount) {
      const taken = new Set(negatives);
      const rest = shuffled(
        others.filter((i) => !taken.has(i)),
        seededRandom(hashSeed(q.id, seed)),
      );
      stats.randomFilledNegatives += negativeCount - negatives.length;
      negatives.push(...rest.slice(0, negativeCount - negatives.length));
    }
    const candidates = shuffled([q.relevant, ...negatives], seededRandom(hashSeed(`order:${q.id}`, seed)));
    const { mineWith: _, ...query } = q;
    return { ...query, candidates };
  });
}
