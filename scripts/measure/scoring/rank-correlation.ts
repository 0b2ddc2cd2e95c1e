/** Ranks 1..n of values, ties sharing their mean rank (so Spearman stays exact with duplicate scores). */
function ranks(values: readonly number[]): number[] {
  const order = values.map((_, i) => i).sort((a, b) => values[a]! - values[b]!);
  const out = new Array<number>(values.length);
  for (let start = 0; start < order.length; ) {
    let end = start;
    while (end + 1 < order.length && values[order[end + 1]!] === values[order[start]!]) end++;
    const rank = (start + end) / 2 + 1;
    for (let k = start; k <= end; k++) out[order[k]!] = rank;
    start = end + 1;
  }
  return out;
}

/** Spearman's rank correlation of two score lists over the same documents (Pearson of the ranks). */
export function spearman(a: readonly number[], b: readonly number[]): number {
  if (a.length !== b.length || a.length < 2) return Number.NaN;
  const ra = ranks(a);
  const rb = ranks(b);
  const mean = (ra.length + 1) / 2;
  let num = 0;
  let da = 0;
  let db = 0;
  for (let i = 0; i < ra.length; i++) {
    const x = ra[i]! - mean;
    const y = rb[i]! - mean;
    num += x * y;
    da += x * x;
    db += y * y;
  }
  return num / Math.sqrt(da * db);
}

/** How closely a variant's scores follow the reference's over the same documents. */
export interface RankAgreement {
  readonly spearman: number;
  readonly maxAbsDiff: number;
  /**
   * maxAbsDiff over the reference's score range: the error in units of the spread it could reorder. Near 0 the
   * variant cannot swap distant documents; near 1 its error is as wide as the whole ranking (near-tied scores).
   */
  readonly maxAbsDiffOverRange: number;
  /** Share of the reference's top k documents that are also in the variant's top k (k = min(topK, n)). */
  readonly topKOverlap: number;
}

function topIndices(values: readonly number[], k: number): Set<number> {
  // Ties broken by index, so equal scores give the same set in both lists.
  return new Set(
    values
      .map((_, i) => i)
      .sort((a, b) => values[b]! - values[a]! || a - b)
      .slice(0, k),
  );
}

/** Spearman, largest score difference (absolute and relative to the reference's range) and top-k overlap. */
export function rankAgreement(reference: readonly number[], scores: readonly number[], topK = 10): RankAgreement {
  if (reference.length !== scores.length || reference.length < 2) {
    return { spearman: Number.NaN, maxAbsDiff: Number.NaN, maxAbsDiffOverRange: Number.NaN, topKOverlap: Number.NaN };
  }
  let maxAbsDiff = 0;
  let lo = Infinity;
  let hi = -Infinity;
  reference.forEach((r, i) => {
    maxAbsDiff = Math.max(maxAbsDiff, Math.abs(r - scores[i]!));
    lo = Math.min(lo, r);
    hi = Math.max(hi, r);
  });
  const k = Math.min(topK, reference.length);
  const top = topIndices(reference, k);
  const shared = [...topIndices(scores, k)].filter((i) => top.has(i)).length;
  return {
    spearman: spearman(reference, scores),
    maxAbsDiff,
    maxAbsDiffOverRange: hi > lo ? maxAbsDiff / (hi - lo) : maxAbsDiff === 0 ? 0 : Infinity,
    topKOverlap: shared / k,
  };
}
