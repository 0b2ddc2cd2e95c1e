/**
 * The contrastive training data for fine-tuning USE-lite: for each TRAIN query of the training sources
 * (debian, info, wordnet), its relevant document and its hardest BM25 negatives. Nothing from the
 * evaluation is in it: no evaluation query (of any source, man pages included) and no document relevant
 * to one appears anywhere in a training pair, as query, positive or negative (test/unit/scoring/bi-encoder/
 * fine-tune-training-pairs.test.ts checks it on the committed sets).
 */
import type { Scorer } from '../../../shared/core/scorer.js';
import { readSourceSplit, TRAINING_SOURCES, UNSEEN_SOURCES } from '../../eval/eval-sources.js';
import type { RelevanceQuery } from '../../eval/relevance-set.js';
import { hashSeed, seededRandom } from '../../eval/seeded-random.js';

export interface TrainingPair {
  readonly source: string;
  /** `dev` pairs are held out of training to pick the epoch; they come from train splits too, never from eval. */
  readonly split: 'train' | 'dev';
  readonly query: string;
  readonly positive: string;
  /** Hardest first (highest BM25 score among the query's mined candidates). */
  readonly negatives: readonly string[];
  /**
   * The served `bm25` model's logit of the positive and of each negative (same order): train.py --residual trains
   * the cosine on what bm25 gets wrong, scoring each candidate as bm25 logit + scale x cosine, as the fusion does.
   */
  readonly bm25Logits?: { readonly positive: number; readonly negatives: readonly number[] };
}

/** The logit of a probability, kept finite: a bm25 P(relevant) of exactly 0 or 1 would be +-Infinity. */
const logit = (p: number): number => {
  const q = Math.min(1 - 1e-12, Math.max(1e-12, p));
  return Math.log(q) - Math.log1p(-q);
};

/** How texts are compared for leakage: case and whitespace do not make an evaluation text a new one. */
export const leakKey = (text: string): string => text.toLowerCase().replace(/\s+/g, ' ').trim();

/** Every evaluation query and every document relevant to one, as leak keys. */
export function evaluationTexts(evalQueries: readonly RelevanceQuery[]): Set<string> {
  const texts = new Set<string>();
  for (const q of evalQueries) {
    texts.add(leakKey(q.query));
    for (const i of q.relevant) texts.add(leakKey(q.documents[i]!));
  }
  return texts;
}

/** Training pairs that contain an evaluation text (should be none). */
export function leakingPairs(pairs: readonly TrainingPair[], forbidden: ReadonlySet<string>): TrainingPair[] {
  return pairs.filter((p) => [p.query, p.positive, ...p.negatives].some((t) => forbidden.has(leakKey(t))));
}

export interface BuildOptions {
  /** Negatives kept per query, hardest first. */
  readonly negatives: number;
  /** Share of train queries held out as the dev split (chosen by a seeded hash of the query id). */
  readonly devShare: number;
  readonly seed: number;
}

/**
 * Pairs from one source's train queries: the relevant candidate is the positive; the negatives are the
 * other candidates (mined by BM25 from the source's pool when the set was built) re-ranked by the served
 * `bm25` scorer, hardest first. A query that is itself an evaluation text, or whose positive is, is
 * dropped; a negative that is one is skipped.
 */
export async function buildPairs(
  source: string,
  queries: readonly RelevanceQuery[],
  bm25: Scorer,
  forbidden: ReadonlySet<string>,
  options: BuildOptions,
): Promise<{ pairs: TrainingPair[]; dropped: number }> {
  const pairs: TrainingPair[] = [];
  let dropped = 0;
  for (const q of queries) {
    const [relevant] = q.relevant;
    if (relevant === undefined || q.relevant.length !== 1) throw new Error(`${source} ${q.id}: expected exactly one relevant candidate`);
    const positive = q.documents[relevant]!;
    if (forbidden.has(leakKey(q.query)) || forbidden.has(leakKey(positive))) {
      dropped++;
      continue;
    }
    const { scores } = await bm25.score(q.query, q.documents);
    const negatives = q.documents
      .map((text, i) => ({ text, i, score: scores[i]! }))
      .filter((d) => d.i !== relevant && leakKey(d.text) !== leakKey(positive) && !forbidden.has(leakKey(d.text)))
      .sort((a, b) => b.score - a.score || a.i - b.i)
      .slice(0, options.negatives);
    const split = seededRandom(hashSeed(`${source}:${q.id}`, options.seed))() < options.devShare ? 'dev' : 'train';
    pairs.push({
      source,
      split,
      query: q.query,
      positive,
      negatives: negatives.map((d) => d.text),
      bm25Logits: { positive: logit(scores[relevant]!), negatives: negatives.map((d) => logit(d.score)) },
    });
  }
  return { pairs, dropped };
}

/** Every training source's pairs, with the evaluation texts of every source (man included) excluded. */
export async function buildTrainingPairs(
  bm25: Scorer,
  options: BuildOptions,
): Promise<{ pairs: TrainingPair[]; dropped: Record<string, number>; forbidden: Set<string> }> {
  const evalSplits = await Promise.all([...TRAINING_SOURCES, ...UNSEEN_SOURCES].map((s) => readSourceSplit(s, 'eval')));
  const forbidden = evaluationTexts(evalSplits.flatMap((s) => s.queries));
  const pairs: TrainingPair[] = [];
  const dropped: Record<string, number> = {};
  for (const source of TRAINING_SOURCES) {
    const built = await buildPairs(source, (await readSourceSplit(source, 'train')).queries, bm25, forbidden, options);
    pairs.push(...built.pairs);
    dropped[source] = built.dropped;
  }
  return { pairs, dropped, forbidden };
}
