import { scoreStats } from '../../core/score-stats.js';

/** The RAG tool's telemetry over the raw scores, in its wire spelling: mean, population std, best minus second best. */
export interface ScoreMetrics {
  readonly mean_score: number;
  readonly std_score: number;
  readonly score_gap: number;
}

/**
 * `np.mean`, `np.std` (ddof 0) and `max - np.partition(scores, -2)[-2]` (0 with fewer than two scores), as
 * the RAG tool's `_calculate_metrics`: the core's scoreStats, which leaves non-finite scores out (a failed
 * scorer's NaN would make every metric NaN, which JSON cannot carry) and gives zeros for no scores.
 */
export function scoreMetrics(scores: readonly number[]): ScoreMetrics {
  const { mean, std, gap } = scoreStats(scores);
  return { mean_score: mean, std_score: std, score_gap: gap };
}
