/**
 * Before/after for a change to the lexical analysis (stemming): `npm run eval -- --save-baseline F`
 * on the tree before the change writes the per-query results of the lexical scorers to F; the report
 * of every later run compares its own results with F on the same queries (paired differences), so a
 * claimed gain is measured on the same candidate sets, not against an old report's rounded figures.
 */
import { existsSync, readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';

export const DEFAULT_BASELINE = 'eval/baseline-unstemmed.json';

interface Estimate {
  readonly mean: number;
  readonly ci95: number;
}

/** What a baseline keeps of one scorer on one source: enough for means, CIs and paired deltas. */
export interface BaselineSplit {
  readonly mrr: Estimate;
  readonly ndcg: Estimate;
  readonly ece: number | null;
  readonly perQuery: { readonly mrr: readonly number[]; readonly ndcg: readonly number[] };
}

export interface AnalyzerBaseline {
  readonly generated: string;
  readonly analyzer: string;
  /** scorer name -> source -> result. */
  readonly scorers: Record<string, Record<string, BaselineSplit>>;
}

/** The scorers whose rows change with the analyzer (the served lexical model and the default). */
export const BASELINE_SCORERS = ['bm25', 'use-lite-bm25 (new default)'] as const;

export async function saveBaseline(path: string, analyzer: string, scorers: Record<string, Record<string, BaselineSplit>>): Promise<void> {
  const baseline: AnalyzerBaseline = { generated: new Date().toISOString(), analyzer, scorers };
  await writeFile(path, `${JSON.stringify(baseline)}\n`);
}

export function readBaseline(path: string): AnalyzerBaseline | undefined {
  return existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as AnalyzerBaseline) : undefined;
}

const fixed = (x: number): string => x.toFixed(3);
function mean(values: readonly number[]): Estimate {
  const n = values.length;
  const m = values.reduce((s, v) => s + v, 0) / n;
  const variance = n > 1 ? values.reduce((s, v) => s + (v - m) ** 2, 0) / (n - 1) : 0;
  return { mean: m, ci95: 1.96 * Math.sqrt(variance / n) };
}

function paired(before: readonly number[], after: readonly number[]): string {
  if (before.length !== after.length) return 'n/a (different queries)';
  const d = mean(after.map((v, i) => v - before[i]!));
  return `${d.mean >= 0 ? '+' : ''}${fixed(d.mean)} ± ${fixed(d.ci95)}`;
}

/** The report table: per source and scorer, before and after with their CIs, and the paired change. */
export function baselineTable(
  baseline: AnalyzerBaseline,
  current: (scorer: string, source: string) => BaselineSplit | undefined,
  sources: readonly string[],
): string {
  const rows = [
    '| source | scorer | MRR@10 before | MRR@10 after | Δ MRR (paired 95% CI) | nDCG@10 before | nDCG@10 after | Δ nDCG (paired 95% CI) | ECE before / after |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- |',
  ];
  for (const source of sources) {
    for (const scorer of BASELINE_SCORERS) {
      const b = baseline.scorers[scorer]?.[source];
      const a = current(scorer, source);
      if (b === undefined || a === undefined) continue;
      const ece = (x: number | null): string => (x === null ? 'n/a' : fixed(x));
      rows.push(
        `| ${source} | ${scorer} | ${fixed(b.mrr.mean)} ± ${fixed(b.mrr.ci95)} | ${fixed(a.mrr.mean)} ± ${fixed(a.mrr.ci95)} | ${paired(b.perQuery.mrr, a.perQuery.mrr)} | ` +
          `${fixed(b.ndcg.mean)} ± ${fixed(b.ndcg.ci95)} | ${fixed(a.ndcg.mean)} ± ${fixed(a.ndcg.ci95)} | ${paired(b.perQuery.ndcg, a.perQuery.ndcg)} | ${ece(b.ece)} / ${ece(a.ece)} |`,
      );
    }
  }
  return rows.join('\n');
}
