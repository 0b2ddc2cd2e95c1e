import type { Parameters } from 'fast-check';

const runsScale = (): number => {
  const scale = Number(process.env['FC_RUNS_SCALE'] ?? '1');
  return Number.isFinite(scale) && scale > 0 ? scale : 1;
};

/**
 * fast-check run parameters. `FC_SEED` replays a reported failure (fast-check prints the seed and
 * path on failure); `FC_RUNS_SCALE` multiplies every budget for a longer soak (`FC_RUNS_SCALE=10`).
 */
export function propertyParams<T>(numRuns: number): Parameters<T> {
  const seed = process.env['FC_SEED'];
  return {
    numRuns: Math.max(1, Math.round(numRuns * runsScale())),
    ...(seed !== undefined && seed !== '' ? { seed: Number(seed) } : {}),
  };
}

/** Per-test timeout for a property: generous on a busy 2-core machine, and it grows with `FC_RUNS_SCALE`. */
export const propertyTimeoutMs = (): number => Math.round(120_000 * runsScale());
