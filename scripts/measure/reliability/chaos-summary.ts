import { percentile, type ChaosRunReport } from './chaos-jobs-run.js';

/** The figures of a chaos run a reader wants: outcomes, latency, and what was injected (markdown tables). */
export function chaosTables(report: ChaosRunReport): { outcomes: string; faults: string } {
  const v = report.verdicts;
  const count = (f: (x: (typeof v)[number]) => boolean) => v.filter(f).length;
  const latencies = v.flatMap((x) => (x.latencyMs === undefined ? [] : [x.latencyMs]));
  const outcomeRows: [string, string | number][] = [
    ['jobs submitted', v.length + report.submitErrors.length],
    ['accepted (submit returned)', v.length],
    ['submit threw (not accepted)', report.submitErrors.length],
    ['... of which left a job running in the store', report.submitErrors.filter((e) => e.leftRunning).length],
    ['poisoned jobs', count((x) => x.poisonedChunk !== undefined)],
    ['succeeded, equal to the synchronous result', count((x) => x.end === 'succeeded' && x.violation === undefined)],
    ['failed with a reason (poisoned)', count((x) => x.end === 'failed' && x.poisonedChunk !== undefined && x.violation === undefined)],
    ['still running at the deadline', count((x) => x.end === 'running')],
    ['lost', count((x) => x.end === 'missing')],
    ['invariant violations', report.violations.length],
    ['chunks', v.reduce((a, x) => a + x.chunks, 0)],
    ['wall time, first submit to last job ended', `${(report.wallMs / 1000).toFixed(1)} s`],
    ['job latency p50 / p99', `${(percentile(latencies, 50) / 1000).toFixed(2)} s / ${(percentile(latencies, 99) / 1000).toFixed(2)} s`],
  ];
  const outcomes = ['| outcome | value |', '| --- | --- |', ...outcomeRows.map(([k, n]) => `| ${k} | ${n} |`)].join('\n');
  const faults = ['| injected fault | count |', '| --- | --- |', ...report.faults.entries().map(([k, n]) => `| ${k} | ${n} |`)].join('\n');
  return { outcomes, faults };
}

export function formatChaosSummary(report: ChaosRunReport): string {
  const { outcomes, faults } = chaosTables(report);
  const errors = report.submitErrors.map((e) => `- submit threw: ${e.message}${e.leftRunning ? ' (job left running)' : ''}`);
  const violations = report.violations.map((v) => `- VIOLATION ${v}`);
  return [outcomes, '', faults, ...errors, ...violations].join('\n');
}
