/**
 * `npm run bench:cold-start [-- --runs 5 --threads 1,2 --shapes minilm-l6-int8,default --multi-thread-shapes default
 * --baseline main]`: the API
 * function's cold start per model shape, split into node start / bundle import / model load / first request, in
 * fresh processes running its esbuild bundle; writes bench/cold-start.md and bench/cold-start-measurements.json.
 * With --baseline <commit>, that commit is bundled too and its runs alternate with this checkout's, so a change is
 * judged against its baseline under the same load. Node: the Lambda runtime's version when scripts/ci/test-on-lambda-node.sh
 * has installed it in .tmp/, else this Node (--node overrides).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { median } from '../scoring/bench-stats.js';
import { benchMachine, uptimeLine } from './bench-machine.js';
import { buildColdStartBundle } from './build-cold-start-bundle.js';
import { availableShapes, COLD_START_SHAPES, modelsSpec, stageShapeFolder, type ColdStartShape } from './cold-start-shapes.js';
import { renderColdStartReport, type CellResult } from './cold-start-report.js';
import { maxScoreDifference, medianSplit } from './cold-start-split.js';
import { runProbe, type ProbeCell, type ProbeRun } from './probe-runner.js';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../../..');
const git = (...args: string[]): string => execFileSync('git', args, { cwd: ROOT, encoding: 'utf8' }).trim();

function lambdaNode(): string | undefined {
  const version = readFileSync(path.join(ROOT, 'scripts/ci/lambda-node-version.txt'), 'utf8').trim();
  const arch = process.arch === 'arm64' ? 'arm64' : 'x64';
  const bin = path.join(ROOT, '.tmp', `lambda-node-${version}`, 'node_modules', `node-linux-${arch}`, 'bin', 'node');
  return existsSync(bin) ? bin : undefined;
}

/** The baseline commit's tree in .tmp/, sharing this checkout's node_modules (its package-lock must be the same). */
function baselineCheckout(ref: string): { dir: string; commit: string } {
  const commit = git('rev-parse', '--short', ref);
  const dir = path.join(ROOT, '.tmp', 'cold-start-baseline', commit);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  execFileSync('bash', ['-c', `git archive ${commit} | tar -x -C '${dir}'`], { cwd: ROOT });
  symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'));
  return { dir, commit };
}

interface Cell {
  readonly shape: ColdStartShape;
  readonly threads: number;
  readonly build: 'change' | 'baseline';
  readonly probe: ProbeCell;
  readonly runs: ProbeRun[];
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      runs: { type: 'string', default: '5' },
      threads: { type: 'string', default: '1,2' },
      shapes: { type: 'string' },
      // Shapes measured at the thread counts after the first one (default: every shape), to keep a run short.
      'multi-thread-shapes': { type: 'string' },
      baseline: { type: 'string' },
      node: { type: 'string' },
    },
  });
  const runs = Math.max(1, Number(values.runs));
  const threads = values.threads.split(',').map(Number);
  const wanted = values.shapes?.split(',');
  const all = wanted === undefined ? COLD_START_SHAPES : COLD_START_SHAPES.filter((s) => wanted.includes(s.id));
  const shapes = availableShapes(ROOT, all);
  const node = values.node ?? lambdaNode() ?? process.execPath;
  const nodeVersion = execFileSync(node, ['--version'], { encoding: 'utf8' }).trim();
  const changeCommit = `${git('rev-parse', '--short', 'HEAD')}${git('status', '--porcelain').length > 0 ? ' with uncommitted changes' : ''}`;

  const change = buildColdStartBundle(ROOT, ROOT);
  const builds: { build: 'change' | 'baseline'; bundle: string; nodeOptions: string }[] = [
    { build: 'change', bundle: change.outfile, nodeOptions: change.nodeOptions },
  ];
  let baselineCommit: string | undefined;
  let baselineNodeOptions: string | undefined;
  if (values.baseline !== undefined) {
    const baseline = baselineCheckout(values.baseline);
    baselineCommit = baseline.commit;
    // Bundled by its own infra/ and run with the NODE_OPTIONS its own stack sets: both are part of what a change may change.
    const built = buildColdStartBundle(baseline.dir, baseline.dir);
    baselineNodeOptions = built.nodeOptions;
    builds.push({ build: 'baseline', bundle: built.outfile, nodeOptions: built.nodeOptions });
  }
  const stageRoot = path.join(ROOT, '.tmp', 'cold-start', 'shapes');
  const multi = values['multi-thread-shapes']?.split(',');
  const cells: Cell[] = shapes.flatMap((shape) => {
    const folder = stageShapeFolder(ROOT, shape, stageRoot);
    const counts = multi === undefined || multi.includes(shape.id) ? threads : threads.slice(0, 1);
    return counts.flatMap((t) =>
      builds.map((b) => ({
        shape,
        threads: t,
        build: b.build,
        runs: [],
        probe: {
          node,
          bundle: b.bundle,
          models: modelsSpec(shape, folder),
          model: shape.model,
          threads: t,
          codeRoot: ROOT,
          nodeOptions: b.nodeOptions,
        },
      })),
    );
  });

  const uptimeBefore = uptimeLine();
  console.error(`${uptimeBefore}\n${cells.length} cells x (1 warm-up + ${runs} runs) on ${nodeVersion}`);
  // Round by round over every cell, so load that drifts during the bench hits every cell (and both builds) alike.
  for (let round = 0; round <= runs; round++) {
    for (const cell of cells) {
      // One retry: a run lost to the shared machine (a kill, a timeout) should not lose the whole bench.
      const run = await runProbe(cell.probe).catch((error: Error) => {
        console.error(`retrying once: ${error.message.split('\n')[0]}`);
        return runProbe(cell.probe);
      });
      if (round > 0) cell.runs.push(run);
      console.error(`round ${round} ${cell.shape.id} t${cell.threads} ${cell.build}: ${run.split.wall.total.toFixed(0)} ms`);
    }
  }
  const uptimeAfter = uptimeLine();

  const results: CellResult[] = cells.map((cell) => {
    const base = cells.find((c) => c.build === 'baseline' && c.shape === cell.shape && c.threads === cell.threads);
    const paired = cell.build === 'change' && base !== undefined;
    return {
      shape: cell.shape.id,
      label: cell.shape.label,
      threads: cell.threads,
      build: cell.build,
      runs: cell.runs.length,
      median: medianSplit(cell.runs.map((r) => r.split)),
      ...(paired
        ? {
            vsBaseline: {
              wall: median(cell.runs.map((r, i) => r.split.wall.total / base.runs[i]!.split.wall.total)),
              cpu: median(cell.runs.map((r, i) => r.split.cpu.total / base.runs[i]!.split.cpu.total)),
              maxScoreDifference: Math.max(...cell.runs.map((r, i) => maxScoreDifference(r.marks.scores, base.runs[i]!.marks.scores))),
            },
          }
        : {}),
    };
  });
  const report = {
    date: new Date().toISOString(),
    machine: benchMachine(),
    node: `Node ${nodeVersion}`,
    nodeOptions: change.nodeOptions,
    ...(baselineNodeOptions === undefined ? {} : { baselineNodeOptions }),
    uptimeBefore,
    uptimeAfter,
    change: changeCommit,
    ...(baselineCommit === undefined ? {} : { baseline: baselineCommit }),
    cells: results,
    missing: all.filter((s) => !shapes.includes(s)).map((s) => ({ label: s.label, build: s.build })),
  };
  writeFileSync(path.join(ROOT, 'bench', 'cold-start.md'), renderColdStartReport(report));
  writeFileSync(path.join(ROOT, 'bench', 'cold-start-measurements.json'), `${JSON.stringify(report, null, 2)}\n`);
  console.error('wrote bench/cold-start.md and bench/cold-start-measurements.json');
}

await main();
