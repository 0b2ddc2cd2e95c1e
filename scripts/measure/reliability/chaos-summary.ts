import { isTerminal } from '../../../shared/batches/batch-model.js';
import type { BatchVerdict } from './chaos-batches-verdicts.js';
import type { ChaosReport } from './chaos-lanes.js';

const table = (head: [string, string], rows: readonly (readonly [string, string | number])[]) =>
  [`| ${head[0]} | ${head[1]} |`, '| --- | --- |', ...rows.map(([k, n]) => `| ${k} | ${n} |`)].join('\n');

export const percentile = (xs: readonly number[], p: number): number => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? Number.NaN;
};

/** The jobs lane's outcomes and latency. */
function jobRows(report: ChaosReport): [string, string | number][] {
  const jobs = report.jobs;
  if (!jobs) return [];
  const v = jobs.verdicts;
  const count = (f: (x: (typeof v)[number]) => boolean) => v.filter(f).length;
  const latencies = v.flatMap((x) => (x.latencyMs === undefined ? [] : [x.latencyMs]));
  const seconds = (p: number) => `${(percentile(latencies, p) / 1000).toFixed(2)} s`;
  return [
    ['jobs submitted / accepted (submit returned)', `${v.length + jobs.submitErrors.length} / ${v.length}`],
    [
      'submit threw (not accepted) / of which left a job running',
      `${jobs.submitErrors.length} / ${jobs.submitErrors.filter((e) => e.leftRunning).length}`,
    ],
    ['poisoned jobs', count((x) => x.poisonedChunk !== undefined)],
    ['jobs succeeded, equal to the synchronous result', count((x) => x.end === 'succeeded' && x.violation === undefined)],
    [
      'jobs failed with a reason (poisoned)',
      count((x) => x.end === 'failed' && x.poisonedChunk !== undefined && x.violation === undefined),
    ],
    ['jobs still running at the end / lost', `${count((x) => x.end === 'running')} / ${count((x) => x.end === 'missing')}`],
    ['job chunks', v.reduce((a, x) => a + x.chunks, 0)],
    ['job latency p50 / p99', `${seconds(50)} / ${seconds(99)}`],
  ];
}

/** The batches lane's outcomes, quota and file writers. */
function batchRows(report: ChaosReport): [string, string | number][] {
  const b = report.batches;
  if (!b) return [];
  const v = b.verdicts;
  const sum = (f: (x: BatchVerdict) => number) => v.reduce((a, x) => a + f(x), 0);
  const ended = v.filter((x) => isTerminal(x.status as never)).length;
  const statuses = [...new Set(v.map((x) => x.status))].join(', ');
  return [
    ['case: batches end by', b.ending],
    ['batches ended (terminal status) / their statuses', `${ended} of ${v.length} / ${statuses}`],
    ['batch input lines / in output / in error files', `${sum((x) => x.lines)} / ${sum((x) => x.completed)} / ${sum((x) => x.failed)}`],
    ['lost lines / duplicated lines', `${sum((x) => x.lost)} / ${sum((x) => x.duplicated)}`],
    ['completed lines differing from the fault-free run', sum((x) => x.differing)],
    [
      'running_batches: max seen / limit / after the end',
      `${b.quotaMax.running_batches} / ${b.quotaLimit.running_batches} / ${b.quotaAfter.running_batches}`,
    ],
    [
      'stored_bytes: max seen / limit / after the end',
      `${b.quotaMax.stored_bytes} / ${b.quotaLimit.stored_bytes} / ${b.quotaAfter.stored_bytes}`,
    ],
    [
      'output + error files: count / bytes (ledger after: files / bytes)',
      `${b.filesAfter.count} / ${b.filesAfter.bytes} (${b.quotaAfter.files} / ${b.quotaAfter.stored_bytes})`,
    ],
    [
      'output / error files listed for one batch, at most',
      `${Math.max(0, ...v.map((x) => x.outputFiles))} / ${Math.max(0, ...v.map((x) => x.errorFiles))}`,
    ],
    [
      'output / error files: most writers of one file at once / rewrites after a failed finalizer',
      `${b.writes.maxConcurrent} / ${b.writes.rewrites}`,
    ],
  ];
}

/** A run's figures as markdown: outcomes per lane, then the faults injected and observed per kind. */
export function chaosTables(report: ChaosReport): { outcomes: string; faults: string } {
  const clean = report.cleanWallMs === undefined ? '' : ` (batches' fault-free run ${(report.cleanWallMs / 1000).toFixed(1)} s)`;
  const outcomes = table(
    ['outcome', 'value'],
    [
      ...jobRows(report),
      ...batchRows(report),
      ['task deliveries', report.deliveries],
      ['invariant violations', report.violations.length],
      ['wall time, first submit to last job or batch ended', `${(report.wallMs / 1000).toFixed(1)} s${clean}`],
    ],
  );
  return { outcomes, faults: table(['injected fault / observed', 'count'], report.faults.entries()) };
}

/** Lost / duplicated / rewrites in one line, for a summary of several runs. */
export function chaosHeadline(report: ChaosReport): string {
  const jobs = report.jobs?.verdicts ?? [];
  const batches = report.batches?.verdicts ?? [];
  const lostJobs = jobs.filter((v) => v.end === 'missing' || v.end === 'running').length;
  const lostLines = batches.reduce((a, v) => a + v.lost, 0);
  const duplicated = batches.reduce((a, v) => a + v.duplicated, 0);
  const writes = report.batches?.writes;
  const ending = report.batches && report.batches.ending !== 'completed' ? ` ending by ${report.batches.ending}` : '';
  return (
    `lane ${report.lane}: ${jobs.length} jobs, ${batches.length} batches${ending}; lost ${lostJobs} jobs + ${lostLines} lines, duplicated ${duplicated} lines` +
    (writes ? `, file writers at once ${writes.maxConcurrent}, rewrites ${writes.rewrites}` : '') +
    `, violations ${report.violations.length}`
  );
}

export function formatChaosSummary(report: ChaosReport): string {
  const { outcomes, faults } = chaosTables(report);
  const errors = (report.jobs?.submitErrors ?? []).map((e) => `- submit threw: ${e.message}${e.leftRunning ? ' (job left running)' : ''}`);
  const violations = report.violations.map((v) => `- VIOLATION ${v}`);
  return [chaosHeadline(report), '', outcomes, '', faults, ...errors, ...violations].join('\n');
}
