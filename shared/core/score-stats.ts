export interface ScoreStats {
  readonly mean: number;
  /** Population standard deviation (numpy's default), as the RAG RFC computes it. */
  readonly std: number;
  /** Best minus second-best; 0 with fewer than two scores. */
  readonly gap: number;
  readonly max: number;
}

/** Telemetry of one scoring (metrics, and the RAG tool's `metadata`): non-finite scores are left out; no scores give zeros. */
export function scoreStats(scores: readonly number[]): ScoreStats {
  const finite = scores.filter((s) => Number.isFinite(s));
  if (finite.length === 0) return { mean: 0, std: 0, gap: 0, max: 0 };
  const mean = finite.reduce((a, b) => a + b, 0) / finite.length;
  const std = Math.sqrt(finite.reduce((a, s) => a + (s - mean) ** 2, 0) / finite.length);
  let first = -Infinity;
  let second = -Infinity;
  for (const s of finite) {
    if (s > first) [first, second] = [s, first];
    else if (s > second) second = s;
  }
  return { mean, std, gap: finite.length < 2 ? 0 : first - second, max: first };
}
