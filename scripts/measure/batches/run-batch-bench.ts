/**
 * `npm run bench:batch`: the batch engine's figures (not part of npm test). Each scenario runs in its own
 * process (peak memory is that process's) over the embedded default: in-memory batch store, in-process task
 * queue with RERANK_LOCAL_WORKERS runners (default 2), files on disk.
 *  1. overhead: 1,000 requests x 100 documents with the TinyBERT fixture as a batch, vs the bare scorer's
 *     pairs/s on the same requests with the same concurrency (target: batch >= 80% of bare);
 *  2. scale: one query over a 1,000,000-document corpus (documents_file_id) with bm25: create time (< 1 s),
 *     completion time, peak memory (target < 1 GB);
 *  3. 10,000 queries x 100 documents with bm25;
 *  4. stored corpus (stored-corpus-bench.ts): the default model over 50,000 documents (BENCH_STORED_DOCUMENTS): the
 *     analysis, a one-line batch from create, a 1,000-line batch (BENCH_STORED_LINES), the same queries as one group pass.
 *     `--only stored-corpus-default` runs it alone and replaces its section of the report.
 * `--quick` divides the sizes by 10; `--runs N` (default 3) alternates the bare / batch TinyBERT pair N times. Prints a table and writes bench/batch-report.md.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, totalmem } from 'node:os';
import { resolve } from 'node:path';
import { runScenario, SCENARIOS, type ScenarioName, type ScenarioResult } from './batch-bench-scenarios.js';
import { STORED_CORPUS_HEADING, storedCorpusReport } from './stored-corpus-bench.js';

const ROOT = resolve(import.meta.dirname, '../../..');
const quick = process.argv.includes('--quick');
const scenarioArg = process.argv[process.argv.indexOf('--scenario') + 1];

if (process.argv.includes('--scenario')) {
  // Child: one scenario, its result as the last stdout line.
  const result = await runScenario(scenarioArg as ScenarioName, quick);
  process.stdout.write(`${JSON.stringify(result)}\n`);
  process.exit(0);
}

/** One scenario in a fresh process; its result is the child's last stdout line. */
function runChild(name: ScenarioName): ScenarioResult {
  console.error(`bench:batch: ${name} ...`);
  const child = spawnSync(process.execPath, ['--import', 'tsx', import.meta.filename, '--scenario', name, ...(quick ? ['--quick'] : [])], {
    cwd: ROOT,
    env: { ...process.env, POWERTOOLS_LOG_LEVEL: 'ERROR', POWERTOOLS_METRICS_DISABLED: 'true' },
    encoding: 'utf8',
    maxBuffer: 1 << 26,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  if (child.status !== 0) throw new Error(`scenario ${name} exited with ${child.status}`);
  const result = JSON.parse(child.stdout.trim().split('\n').at(-1) as string) as ScenarioResult;
  console.error(`  ${JSON.stringify(result)}`);
  return result;
}

const machine = `${cpus()[0]?.model ?? 'cpu'}, ${availableParallelism()} CPUs, ${Math.round(totalmem() / 2 ** 30)} GiB, load ${loadavg()
  .map((l) => l.toFixed(1))
  .join(' / ')} (shared machine), Node ${process.version}`;
const REPORT = resolve(ROOT, 'bench/batch-report.md');

/** bench/batch-report.md with its stored-corpus section replaced (or added): the other rows stay as their run wrote them. */
function writeStoredSection(result: ScenarioResult, base: string): string {
  const at = base.indexOf(STORED_CORPUS_HEADING);
  const kept = (at >= 0 ? base.slice(0, at) : base).trimEnd();
  return `${kept}\n\n${storedCorpusReport(result, machine).join('\n')}`;
}

if (process.argv.includes('--only')) {
  // `--only stored-corpus-default`: that scenario alone, its section of the report replaced.
  const name = process.argv[process.argv.indexOf('--only') + 1] as ScenarioName;
  if (name !== 'stored-corpus-default') throw new Error('--only takes stored-corpus-default');
  const report = writeStoredSection(
    runChild(name),
    existsSync(REPORT) ? readFileSync(REPORT, 'utf8') : '# Batch engine bench (`npm run bench:batch`)\n',
  );
  writeFileSync(REPORT, report);
  console.log(report);
  process.exit(0);
}

// The overhead pair alternates bare / batch over RUNS runs (a shared machine's load drifts): medians and each run's ratio.
const RUNS = Number(process.argv[process.argv.indexOf('--runs') + 1]) || 3;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
const pairs: { bare: ScenarioResult; batch: ScenarioResult }[] = [];
for (let run = 0; run < RUNS; run++) pairs.push({ bare: runChild('bare-tinybert'), batch: runChild('batch-tinybert') });
const runRatios = pairs.map((p) => (p.batch.pairsPerSecond as number) / (p.bare.pairsPerSecond as number));
const byMedian = (side: 'bare' | 'batch'): ScenarioResult => {
  const sorted = [...pairs].sort((a, b) => (a[side].pairsPerSecond as number) - (b[side].pairsPerSecond as number));
  return (sorted[Math.floor(sorted.length / 2)] as (typeof pairs)[number])[side];
};
const results = new Map<ScenarioName, ScenarioResult>([
  ['bare-tinybert', byMedian('bare')],
  ['batch-tinybert', byMedian('batch')],
]);
for (const name of SCENARIOS.filter((n) => !results.has(n) && n !== 'stored-corpus-default')) results.set(name, runChild(name));
const stored = runChild('stored-corpus-default');

const mb = (kb: number) => `${Math.round(kb / 1024)} MB`;
const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const bare = results.get('bare-tinybert') as ScenarioResult;
const batch = results.get('batch-tinybert') as ScenarioResult;
const corpus = results.get('corpus-bm25') as ScenarioResult;
const many = results.get('many-bm25') as ScenarioResult;
const shared = results.get('shared-corpus-default') as ScenarioResult;
const ratio = median(runRatios);
const rows = [
  ['scenario', 'requests x documents', 'create answered', 'completed in', 'pairs/s', 'peak RSS', 'status'],
  [
    'bare TinyBERT scorer (same requests, same concurrency)',
    bare.shape,
    '-',
    s(bare.totalMs),
    bare.pairsPerSecond?.toFixed(0) ?? '-',
    mb(bare.peakRssKb),
    '-',
  ],
  [
    'batch, TinyBERT fixture',
    batch.shape,
    `${batch.createMs?.toFixed(0)} ms`,
    s(batch.totalMs),
    batch.pairsPerSecond?.toFixed(0) ?? '-',
    mb(batch.peakRssKb),
    batch.status ?? '-',
  ],
  [
    'batch, bm25, one query over a corpus (documents_file_id, top_n 10)',
    corpus.shape,
    `${corpus.createMs?.toFixed(0)} ms`,
    s(corpus.totalMs),
    corpus.pairsPerSecond?.toFixed(0) ?? '-',
    mb(corpus.peakRssKb),
    corpus.status ?? '-',
  ],
  [
    'batch, default model (use-lite-bm25), many queries over one corpus',
    shared.shape,
    `${shared.createMs?.toFixed(0)} ms`,
    s(shared.totalMs),
    shared.pairsPerSecond?.toFixed(0) ?? '-',
    mb(shared.peakRssKb),
    shared.status ?? '-',
  ],
  [
    'batch, bm25, inline documents',
    many.shape,
    `${many.createMs?.toFixed(0)} ms`,
    s(many.totalMs),
    many.pairsPerSecond?.toFixed(0) ?? '-',
    mb(many.peakRssKb),
    many.status ?? '-',
  ],
];
const table = rows.map((r) => `| ${r.join(' | ')} |`);
table.splice(1, 0, `|${rows[0]?.map(() => ' --- ').join('|')}|`);
const report = [
  '# Batch engine bench (`npm run bench:batch`)',
  '',
  `Machine: ${machine}. ${quick ? 'QUICK run (sizes / 10). ' : ''}Each scenario ran in its own process; peak RSS is that process's maxRSS`,
  '(the bench writes its input files to disk first, in the same process). Engine: in-memory batch store, in-process task queue',
  `with 2 x RERANK_LOCAL_WORKERS (${process.env['RERANK_LOCAL_WORKERS'] ?? '2'}) runners, files in a scratch folder; create is BatchEngine.create (record + plan task; planning runs after it).`,
  '',
  ...table,
  '',
  `Overhead: the batch reached **${(ratio * 100).toFixed(0)}%** of the bare scorer's pairs/s (median of ${RUNS} alternating runs; each run: ${runRatios.map((r) => `${(r * 100).toFixed(0)}%`).join(', ')}; target >= 80%). The TinyBERT rows are the median runs.`,
  `Scale: create answered in ${corpus.createMs?.toFixed(0)} ms (target < 1 s); peak RSS ${mb(corpus.peakRssKb)} (target < 1 GB).`,
  `Shared corpus: the bi-encoder encoded ${shared.encoded} texts and took ${shared.reused} from its embedding cache for ${shared.shape} (the corpus once, then each query once).`,
  '',
];
mkdirSync(resolve(ROOT, 'bench'), { recursive: true });
const full = writeStoredSection(stored, report.join('\n'));
writeFileSync(REPORT, full);
console.log(full);
