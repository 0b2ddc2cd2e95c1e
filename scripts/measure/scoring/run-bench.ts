/**
 * `npm run bench [-- --quick] [--threads 1,2,4,6] [--no-chooser]`: measures the ONNX cross-encoder scorer and its Python
 * peers (Python onnxruntime, sentence-transformers CrossEncoder on PyTorch) side by side, once per thread
 * count, each count in its own process pinned with `taskset -c 0-(N-1)` where taskset exists and the
 * machine has N cores (so one command measures 1-6 threads on a larger machine). Writes bench/report.md,
 * bench/throughput.svg, bench/scaling.svg and bench/scoring-measurements.json (the per-pair times the
 * scale model reads); raw figures in bench/out/results.json. Then the model chooser (model-chooser.ts). Not part of `npm test`: minutes, noisy.
 *
 * Models: random-weight BERT cross-encoders with the exact shapes of ms-marco-MiniLM-L-6-v2 and
 * ms-marco-TinyBERT-L-2-v2 (scripts/model/build-random-shapes.py, built on first run into bench/.models/);
 * quantization variants by scripts/measure/scoring/quantize-variants.py when present.
 * `--report-only` rewrites the report from the last run's bench/out/threads-N.json files without measuring.
 * Env: BENCH_PYTHON (default /tmp/mlvenv/bin/python if present, else python3).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, totalmem } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as ort from 'onnxruntime-node';
import { FORM_MODELS, FORM_VARIANTS, MODELS, MODELS_DIR } from './bench-models.js';
import type { BenchResults, ThreadRun } from './bench-results.js';
import { benchPython } from './python-peer-client.js';
import { writeReport } from './report-writer.js';
import { writeScoringMeasurements } from './scoring-measurements.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const quick = process.argv.includes('--quick');
const reportOnly = process.argv.includes('--report-only');

function threadList(): number[] {
  const i = process.argv.indexOf('--threads');
  const raw = i >= 0 ? process.argv[i + 1] : process.env['BENCH_THREADS'];
  const list = raw === undefined ? [1, availableParallelism()] : raw.split(',').map((s) => Number(s.trim()));
  if (list.some((n) => !Number.isInteger(n) || n < 1))
    throw new Error(`--threads takes a comma-separated list of positive integers, got ${raw}`);
  return [...new Set(list)].sort((a, b) => a - b);
}

function ensureModels(python: string): void {
  const missing = MODELS.filter((m) => !existsSync(path.join(MODELS_DIR, m.name, 'onnx', 'model_quantized.onnx')));
  if (missing.length > 0) {
    console.log(`building random-weight models (${missing.map((m) => m.name).join(', ')}) with ${python} ...`);
    const built = spawnSync(python, [path.join(ROOT, 'scripts/model/build-random-shapes.py'), '--out', MODELS_DIR], { stdio: 'inherit' });
    if (built.status !== 0)
      throw new Error(`could not build bench models with ${python} (exit ${built.status}); it needs torch + transformers + onnx`);
  }
  // The spread copies (init std 0.1: logits whole units apart) for the rank-agreement check beside the bench's own; seconds to build.
  if (MODELS.some((m) => !existsSync(path.join(MODELS_DIR, `${m.name}-spread`, 'onnx', 'model_quantized.onnx')))) {
    const built = spawnSync(python, [path.join(ROOT, 'scripts/model/build-random-shapes.py'), '--out', MODELS_DIR, '--init-range', '0.1'], {
      stdio: 'inherit',
    });
    if (built.status !== 0) console.log(`spread copies not built (exit ${built.status}); the report shows the bench models' Spearman only`);
  }
  // The graph form users serve (the Hub's optimum export) with its fused variants, beside the torch-2.13 form.
  for (const form of FORM_MODELS) {
    if (!existsSync(path.join(MODELS_DIR, form.name, 'onnx', 'model_quantized.onnx'))) {
      const built = spawnSync(
        python,
        [
          path.join(ROOT, 'scripts/model/build-random-shapes.py'),
          '--out',
          MODELS_DIR,
          '--form',
          'hub',
          '--only',
          form.name.replace(/-hub$/, ''),
        ],
        { stdio: 'inherit' },
      );
      if (built.status !== 0) console.log(`${form.name} not built (exit ${built.status}); the report leaves its rows out`);
    }
    const variants = spawnSync(
      python,
      [
        path.join(ROOT, 'scripts/measure/scoring/cpu-forms.py'),
        '--model',
        form.name.replace(/-hub$/, ''),
        '--build-only',
        '--recipes',
        FORM_VARIANTS.map((v) => v.recipe).join(','),
      ],
      { stdio: 'inherit' },
    );
    if (variants.status !== 0) console.log(`fused variants of ${form.name} not built (exit ${variants.status})`);
  }
  // Folders built under an earlier recipe get today's model_quantized.onnx (the converters' SHIPPED recipe).
  const requantized = spawnSync(python, [path.join(ROOT, 'scripts/model/build-random-shapes.py'), '--out', MODELS_DIR, '--requantize'], {
    stdio: 'inherit',
  });
  if (requantized.status !== 0) throw new Error(`could not re-quantize the bench models with ${python} (exit ${requantized.status})`);
  // Idempotent: builds only the variant files that are missing (static recipes calibrate for ~20 s each the first time).
  console.log('building quantization variants ...');
  const built = spawnSync(python, [path.join(ROOT, 'scripts/measure/scoring/quantize-variants.py'), '--models', MODELS_DIR], {
    stdio: 'inherit',
  });
  if (built.status !== 0) console.log(`quantization variants not built (exit ${built.status}); the bench skips them`);
}

const hasTaskset = spawnSync('taskset', ['--version']).status === 0;

function runAtThreads(threads: number, extras: boolean): ThreadRun {
  const out = path.join(ROOT, 'bench', 'out', `threads-${threads}.json`);
  const script = path.join(ROOT, 'scripts/measure/scoring/bench-at-threads.ts');
  const args = [
    '--import',
    'tsx',
    script,
    '--threads',
    String(threads),
    '--out',
    out,
    ...(quick ? ['--quick'] : []),
    ...(extras ? ['--extras'] : []),
  ];
  // Pin to the first N cores so N threads really means N CPUs (and the Python peers, children, inherit it).
  const pinned = hasTaskset && threads <= availableParallelism() ? `0-${threads - 1}` : null;
  const [command, commandArgs] = pinned === null ? [process.execPath, args] : ['taskset', ['-c', pinned, process.execPath, ...args]];
  console.log(`--- ${threads} thread(s)${pinned === null ? ' (not pinned)' : `, pinned to cores ${pinned}`} ---`);
  const run = spawnSync(command, commandArgs, { stdio: 'inherit', env: process.env });
  if (run.status !== 0) throw new Error(`bench at ${threads} thread(s) failed (exit ${run.status})`);
  const result = JSON.parse(readFileSync(out, 'utf8')) as ThreadRun;
  result.pinnedCores = pinned;
  return result;
}

async function main(): Promise<void> {
  const threads = threadList();
  mkdirSync(path.join(ROOT, 'bench', 'out'), { recursive: true });
  let runs: ThreadRun[];
  if (reportOnly) {
    runs = threads.map((n) => JSON.parse(readFileSync(path.join(ROOT, 'bench', 'out', `threads-${n}.json`), 'utf8')) as ThreadRun);
    runs.forEach((run) => (run.pinnedCores ??= hasTaskset && run.threads <= availableParallelism() ? `0-${run.threads - 1}` : null));
  } else {
    ensureModels(benchPython());
    runs = threads.map((n) => runAtThreads(n, n === threads[threads.length - 1]));
  }
  const results: BenchResults = {
    // Report-only keeps the date of the measurements, not of the rewrite.
    date: reportOnly
      ? statSync(path.join(ROOT, 'bench', 'out', `threads-${threads[threads.length - 1]}.json`)).mtime.toISOString()
      : new Date().toISOString(),
    quick: runs.some((r) => r.quick),
    machine: {
      cpus: `${cpus().length} x ${cpus()[0]?.model ?? '?'}`,
      memoryGb: totalmem() / 2 ** 30,
      node: process.version,
      onnxruntimeNode: ort.env.versions.common,
    },
    runs,
  };
  writeFileSync(path.join(ROOT, 'bench', 'out', 'results.json'), `${JSON.stringify(results, null, 2)}\n`);
  const written = [...writeReport(results, path.join(ROOT, 'bench')), writeScoringMeasurements(results, path.join(ROOT, 'bench'))];
  console.log(`wrote ${written.join(', ')}`);
  // The model chooser (docs/models.md) from the same session: the served shapes through the real server.
  if (!reportOnly && !process.argv.includes('--no-chooser')) {
    const chooser = spawnSync(
      process.execPath,
      ['--import', 'tsx', path.join(ROOT, 'scripts/measure/scoring/model-chooser.ts'), ...(quick ? ['--quick'] : [])],
      {
        stdio: 'inherit',
      },
    );
    if (chooser.status !== 0) throw new Error(`the model chooser failed (exit ${chooser.status})`);
  }
}

await main();
