import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { LIMITS, PRICES } from '../scale/aws-limits.js';
import { replaceBetweenMarkers } from '../scale/readme-section.js';
import { CHOOSER_SHAPES, type ChooserRow, type ChooserRun } from './model-chooser-shapes.js';

/** The typical RAG workload the monthly column prices (the example: 100k queries of 50 candidates a month). */
const MONTHLY_QUERIES = 100_000;
const COST_DOCUMENTS = 50;

/**
 * Dollars per 1,000 synchronous queries on Lambda x86_64 at `threads` vCPUs (1,769 MB per vCPU): billed duration is
 * the wall-clock p50, plus the invocation and the HTTP API request. Cold starts and the authorizer are left out.
 */
export function costPerThousand(wallMs: number, threads: number): number {
  const gb = (threads * LIMITS.lambdaMbPerVcpu) / 1024;
  return 1000 * ((wallMs / 1000) * gb * PRICES.lambdaGbSecond.x86_64 + PRICES.lambdaRequest + PRICES.httpApiRequest);
}

function cell(rows: readonly ChooserRow[], shape: string, threads: number, documents: number): ChooserRow | undefined {
  return rows.find((r) => r.shape === shape && r.threads === threads && r.documents === documents);
}

const ms = (row: ChooserRow | undefined): string =>
  row === undefined ? 'n/a' : row.wallP50Ms < 10 ? row.wallP50Ms.toFixed(1) : row.wallP50Ms.toFixed(0);
const usd = (value: number): string => (value < 0.01 ? `$${value.toFixed(4)}` : `$${value.toFixed(3)}`);

/** The chooser table: one row per shape, latency at 1 and 2 vCPUs, cost per 1,000 queries and per month. */
export function chooserTable(run: ChooserRun): string {
  const lines = [
    '| model | quality | p50 ms, 10 / 50 / 100 docs, 1 vCPU | p50 ms, 10 / 50 / 100 docs, 2 vCPUs | $ per 1,000 queries of 50 docs, 1 / 2 vCPUs | $ a month, 100k queries x 50 docs (best) |',
    '| --- | --- | --- | --- | --- | --- |',
  ];
  for (const shape of CHOOSER_SHAPES) {
    if (!run.rows.some((r) => r.shape === shape.id)) continue;
    const latency = (t: number) => [10, 50, 100].map((d) => ms(cell(run.rows, shape.id, t, d))).join(' / ');
    const costs = [1, 2].map((t) => {
      const row = cell(run.rows, shape.id, t, COST_DOCUMENTS);
      return row === undefined ? undefined : costPerThousand(row.wallP50Ms, t);
    });
    const known = costs.filter((c): c is number => c !== undefined);
    const monthly = known.length === 0 ? 'n/a' : `$${((Math.min(...known) * MONTHLY_QUERIES) / 1000).toFixed(2)}`;
    lines.push(
      `| ${shape.checkpoint} | ${shape.quality} | ${latency(1)} | ${latency(2)} | ${costs.map((c) => (c === undefined ? 'n/a' : usd(c))).join(' / ')} | ${monthly} |`,
    );
  }
  return lines.join('\n');
}

function provenance(run: ChooserRun): string {
  const flags = Object.entries(run.machine.flags)
    .filter(([, on]) => on)
    .map(([flag]) => flag)
    .join(', ');
  const load = run.load.map((l) => `${l.threads} vCPU ${l.start.toFixed(1)} -> ${l.end.toFixed(1)}`).join(', ');
  return (
    `Measured by \`npm run bench:chooser\` (also run by \`npm run bench\`) on ${run.date.slice(0, 16).replace('T', ' ')} UTC: ` +
    `${run.machine.cpus} x ${run.machine.cpuModel} (${flags || 'no AVX2'}), 1-minute load ${load}. ` +
    'Each cell is the median wall time of POST /v1/rerank on the real local server pinned to that many cores with the ' +
    'production execution plan, after one warm-up per size; documents are the bench mix (40% 15-60 words, 40% 60-200, ' +
    '20% 200-700, truncated at 512 tokens). The cross-encoder rows run random weights of the named shape (speed does not ' +
    'depend on the weights). Cost: Lambda x86_64 at 1,769 MB per vCPU, billed for the p50, plus the invocation and the ' +
    'HTTP API request; cold starts are priced in docs/cost.md.'
  );
}

/** bench/model-chooser.md (the full run, CPU time beside wall time) and the table in docs/models.md. */
export function writeChooserReport(root: string, run: ChooserRun): void {
  const detail = [
    '| shape | vCPUs | documents | requests | p50 wall ms | p50 server CPU ms |',
    '| --- | --- | --- | --- | --- | --- |',
    ...run.rows.map(
      (r) => `| ${r.shape} | ${r.threads} | ${r.documents} | ${r.samples} | ${r.wallP50Ms.toFixed(1)} | ${r.cpuP50Ms.toFixed(0)} |`,
    ),
  ].join('\n');
  const report = `# Model chooser\n\n${provenance(run)}\n\n${chooserTable(run)}\n\n## Every cell\n\n${detail}\n`;
  writeFileSync(path.join(root, 'bench/model-chooser.md'), report);
  const docs = path.join(root, 'docs/models.md');
  const body = `${chooserTable(run)}\n\n${provenance(run)} Every cell: [bench/model-chooser.md](../bench/model-chooser.md).`;
  writeFileSync(docs, replaceBetweenMarkers(readFileSync(docs, 'utf8'), 'model-chooser:table', body));
}
