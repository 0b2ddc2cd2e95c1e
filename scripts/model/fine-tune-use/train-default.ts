/**
 * The default model from scratch, one seeded command (npm run model:train-default [-- --seed 13]):
 *
 *  1. training pairs from the train splits (build-training-pairs.ts; no evaluation text, checked)
 *  2. USE-lite fine-tuned on all of them -> models/use-lite-tuned (train.py, PyTorch; checks the port first)
 *  3. for each training source, a copy fine-tuned without it, and that source's train split embedded by it
 *     (so the fusion is fitted on out-of-sample cosines: cross-fitting)
 *  4. every set embedded by models/use-lite-tuned (eval/.cache, keyed by the model's digest)
 *  5. the fusion: features, L2 and k by leave-one-source-out CV, refitted, written to models/use-lite-tuned/fusion.json
 *     (fit-default-fusion.ts; eval/fusion-cv-use-lite-tuned.md); with --adopt instead to shared/scoring/hybrid/use-lite-fusion.ts, the
 *     served default's (only when the default's spec names use-lite-tuned)
 *  6. npm run eval (eval/report.md)
 *
 * Training options go to every train.py run: --mode head|full, --epochs, --threads, --body-lr, --l2sp, --bf16,
 * --freeze-embeddings, --residual, --hard, --pool; --jobs 2 trains two models at a time (the main one and the copies are independent: with
 * --threads 1 each, one per core).
 *
 * Needs python3 with torch, onnx and onnxruntime (`python3 -m pip install torch onnx onnxruntime`; PYTHON
 * names another interpreter). Reproducible means the same evaluation figures within their confidence
 * intervals, not identical weights on another CPU.
 */
import { spawn, spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { TRAINING_SOURCES } from '../../eval/eval-sources.js';

const ROOT = resolve(import.meta.dirname, '../../..');
const { values } = parseArgs({
  options: {
    seed: { type: 'string', default: '13' },
    'skip-eval': { type: 'boolean', default: false },
    adopt: { type: 'boolean', default: false },
    mode: { type: 'string', default: 'head' },
    epochs: { type: 'string' },
    threads: { type: 'string' },
    'body-lr': { type: 'string' },
    l2sp: { type: 'string' },
    residual: { type: 'string' },
    hard: { type: 'string' },
    pool: { type: 'string' },
    bf16: { type: 'boolean', default: false },
    'freeze-embeddings': { type: 'boolean', default: false },
    jobs: { type: 'string', default: '1' },
  },
});
const trainOptions = [
  '--mode',
  values.mode,
  ...(['epochs', 'threads', 'body-lr', 'l2sp', 'residual', 'hard', 'pool'] as const).flatMap((k) =>
    values[k] === undefined ? [] : [`--${k}`, values[k]],
  ),
  ...(values.bf16 ? ['--bf16'] : []),
  ...(values['freeze-embeddings'] ? ['--freeze-embeddings'] : []),
];
const python = process.env['PYTHON'] ?? 'python3';
const tsx = resolve(ROOT, 'node_modules/.bin/tsx');
const HELD_OUT = 'models/.build/use-lite-tuned/without-{source}';

function run(command: string, args: readonly string[]): void {
  console.log(`\n$ ${command} ${args.join(' ')}`);
  const result = spawnSync(command, args, { cwd: ROOT, stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (exit ${result.status ?? result.signal})`);
}

/** One train.py run, its output prefixed so that concurrent runs stay readable. */
function train(extra: readonly string[], label: string): Promise<void> {
  const args = ['scripts/model/fine-tune-use/train.py', '--seed', values.seed, ...trainOptions, ...extra];
  console.log(`\n$ ${python} ${args.join(' ')}`);
  return new Promise((done, fail) => {
    const child = spawn(python, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
    child.stdout.on('data', (chunk: Buffer) => process.stdout.write(chunk.toString().replace(/^(?=.)/gm, `[${label}] `)));
    child.on('error', fail);
    child.on('close', (code) => (code === 0 ? done() : fail(new Error(`train.py ${extra.join(' ')} failed (exit ${code})`))));
  });
}

run(tsx, ['scripts/model/fine-tune-use/build-training-pairs.ts']);
const runs: { label: string; extra: string[] }[] = [
  { label: 'all sources', extra: [] },
  ...TRAINING_SOURCES.map((source) => ({
    label: `without ${source}`,
    extra: ['--exclude-source', source, '--out', HELD_OUT.replace('{source}', source)],
  })),
];
const queue = [...runs];
const worker = async (): Promise<void> => {
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) await train(next.extra, next.label);
};
await Promise.all(Array.from({ length: Math.max(1, Number(values.jobs)) }, worker));
for (const source of TRAINING_SOURCES) run(tsx, ['scripts/eval/embed-sets.ts', HELD_OUT.replace('{source}', source), source, 'train']);
run(tsx, ['scripts/eval/embed-sets.ts', 'models/use-lite-tuned']);
run(tsx, [
  'scripts/eval/fit-default-fusion.ts',
  '--model',
  'models/use-lite-tuned',
  '--held-out-models',
  HELD_OUT,
  '--report',
  'eval/fusion-cv-use-lite-tuned.md',
  ...(values.adopt ? ['--write'] : []),
]);
if (!values['skip-eval']) run(tsx, ['scripts/eval/run-eval.ts']);
