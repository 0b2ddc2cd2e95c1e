/**
 * Fusion of two score lists for the same candidates, in input order. Both rules are scale-free: a
 * cross-encoder logit (about -10..10), a cosine (-1..1) and a BM25 sum (0..unbounded, growing with
 * query length) are not on comparable scales, and their ranges move from request to request, so
 * adding raw scores would let whichever component has the wider range decide alone.
 *
 * Non-finite inputs: NaN counts as the worst score of its component; +Infinity as the best,
 * -Infinity as the worst. Fused scores are therefore always finite.
 */

/** Reciprocal-rank-fusion constant from Cormack, Clarke & Buettcher (SIGIR 2009), also Elasticsearch's and OpenSearch's default. */
export const RRF_K = 60;

/**
 * Per-request min-max normalization to [0, 1]: (s - min) / (max - min) over the finite scores.
 * A component whose finite scores are all equal (one candidate, or BM25 with no matching term)
 * separates nothing; it maps to 0 everywhere, so it adds nothing and the other component decides.
 */
export function minMaxNormalize(scores: readonly number[]): number[] {
  const range = finiteRange(scores);
  return scores.map((s) => minMaxScale(s, range));
}

/** The finite scores' min and max (min > max when there is none): a set statistic that can be gathered while streaming. */
export interface ScoreRange {
  readonly min: number;
  readonly max: number;
}

export function finiteRange(scores: Iterable<number>, start: ScoreRange = { min: Infinity, max: -Infinity }): ScoreRange {
  let { min, max } = start;
  for (const s of scores) {
    if (!Number.isFinite(s)) continue;
    if (s < min) min = s;
    if (s > max) max = s;
  }
  return { min, max };
}

/** One score rescaled by its set's range, as minMaxNormalize does it (so a streamed fusion equals the whole-set one). */
export function minMaxScale(s: number, { min, max }: ScoreRange): number {
  if (Number.isNaN(s) || s === -Infinity) return 0;
  if (s === Infinity) return 1;
  const range = max - min;
  return range > 0 ? (s - min) / range : 0;
}

/**
 * 1-based competition ranks ("1224"), best = 1: equal scores share the best of their ranks, so a
 * component that ties everything (all-zero BM25) gives every candidate the same contribution.
 * NaN ranks below everything, as in normalizeResults.
 */
export function competitionRanks(scores: readonly number[]): number[] {
  const key = (s: number): number => (Number.isNaN(s) ? -Infinity : s);
  const order = scores.map((_, i) => i).sort((a, b) => key(scores[b]!) - key(scores[a]!) || a - b);
  const ranks = new Array<number>(scores.length);
  order.forEach((index, position) => {
    const previous = position > 0 ? order[position - 1]! : undefined;
    const tied = previous !== undefined && key(scores[previous]!) === key(scores[index]!);
    ranks[index] = tied ? ranks[previous]! : position + 1;
  });
  return ranks;
}

/** weight * minmax(a) + (1 - weight) * minmax(b); in [0, 1]. */
export function fuseMinMax(a: readonly number[], b: readonly number[], weight: number): number[] {
  checkLengths(a, b);
  const na = minMaxNormalize(a);
  const nb = minMaxNormalize(b);
  return na.map((x, i) => weight * x + (1 - weight) * nb[i]!);
}

/**
 * Weighted reciprocal rank fusion: weight / (k + rank_a) + (1 - weight) / (k + rank_b).
 * Only ranks matter, never score values. With weight 0.5 this is plain RRF (a sum of 1/(k + rank))
 * halved, i.e. the same ranking.
 */
export function fuseRrf(a: readonly number[], b: readonly number[], weight: number, k: number = RRF_K): number[] {
  checkLengths(a, b);
  const ra = competitionRanks(a);
  const rb = competitionRanks(b);
  return ra.map((rank, i) => weight / (k + rank) + (1 - weight) / (k + rb[i]!));
}

function checkLengths(a: readonly number[], b: readonly number[]): void {
  if (a.length !== b.length) throw new RangeError(`cannot fuse ${a.length} scores with ${b.length} scores`);
}
