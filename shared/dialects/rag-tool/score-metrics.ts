/** Seed 002's telemetry over the raw scores: numpy's mean, population std, and best minus second best. */
export interface ScoreMetrics {
  readonly mean_score: number;
  readonly std_score: number;
  readonly score_gap: number;
}

/**
 * `np.mean`, `np.std` (ddof 0) and `max - np.partition(scores, -2)[-2]` (0 with fewer than two scores), as
 * the RFC's `_calculate_metrics`. Non-finite scores (a failed scorer's NaN) are left out rather than turning
 * every metric into NaN, which JSON cannot carry. No scores at all gives zeros.
 */
export function scoreMetrics(scores: readonly number[]): ScoreMetrics {
  const finite = scores.filter(Number.isFinite);
  if (finite.length === 0) return { mean_score: 0, std_score: 0, score_gap: 0 };
  const mean = finite.reduce((sum, s) => sum + s, 0) / finite.length;
  const variance = finite.reduce((sum, s) => sum + (s - mean) ** 2, 0) / finite.length;
  const sorted = [...finite].sort((a, b) => b - a);
  const gap = sorted.length < 2 ? 0 : (sorted[0] as number) - (sorted[1] as number);
  return { mean_score: mean, std_score: Math.sqrt(variance), score_gap: gap };
}
