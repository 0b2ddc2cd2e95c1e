import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { BenchResults } from './bench-results.js';

/**
 * What the scale model (`npm run scale-model`) reads from a bench run: our scorer's measured pairs/s per
 * model, variant and thread count, with the machine and its load. Committed (bench/out/ is not), so the
 * docs/cost.md cost table is always generated from a real measurement.
 */
export interface ScoringMeasurements {
  readonly source: string;
  readonly date: string;
  readonly machine: string;
  readonly loadAverage1m: { readonly threads: number; readonly start: number; readonly end: number }[];
  readonly rows: {
    readonly model: string;
    readonly variant: string;
    readonly threads: number;
    readonly meanTokens: number;
    readonly pairsPerSecond: number;
  }[];
  /** Fresh-process init (import + model load + sessions), per "model variant", at the largest thread count. */
  readonly coldStart: { readonly model: string; readonly threads: number; readonly seconds: number }[];
}

export function writeScoringMeasurements(results: BenchResults, benchDir: string): string {
  const file = path.join(benchDir, 'scoring-measurements.json');
  const measurements: ScoringMeasurements = {
    source: `npm run bench${results.quick ? ' -- --quick' : ''} --threads ${results.runs.map((r) => r.threads).join(',')}`,
    date: results.date,
    machine: results.machine.cpus,
    loadAverage1m: results.runs.map((r) => ({ threads: r.threads, start: r.loadAverageStart[0]!, end: r.loadAverageEnd[0]! })),
    rows: results.runs.flatMap((r) =>
      r.throughput.map((t) => ({
        model: t.model,
        variant: t.variant,
        threads: t.threads,
        meanTokens: t.meanTokens,
        pairsPerSecond: t.ours,
      })),
    ),
    coldStart: results.runs.flatMap((r) =>
      (r.extras?.coldStart ?? []).map((c) => ({ model: c.model, threads: r.threads, seconds: (c.importMs + c.loadMs) / 1000 })),
    ),
  };
  writeFileSync(file, `${JSON.stringify(measurements, null, 2)}\n`);
  return file;
}
