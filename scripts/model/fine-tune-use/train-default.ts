/**
 * The default model from scratch, one seeded command (npm run model:train-default [-- --seed 13]):
 *
 *  1. training pairs from the train splits (build-training-pairs.ts; no evaluation text, checked)
 *  2. USE-lite fine-tuned on all of them -> models/use-lite-tuned (train.py, PyTorch; checks the port first)
 *  3. for each training source, a copy fine-tuned without it, and that source's train split embedded by it
 *     (so the fusion is fitted on out-of-sample cosines: cross-fitting)
 *  4. every set embedded by models/use-lite-tuned (eval/.cache, keyed by the model's digest)
 *  5. the fusion: features, L2 and k by leave-one-source-out CV, refitted, written to models/use-lite-tuned/fusion.json
 *     (fit-default-fusion.ts; eval/fusion-cv.md); with --adopt also to shared/scoring/hybrid/use-lite-fusion.ts, the
 *     served default's (only when the default's spec names use-lite-tuned)
 *  6. npm run eval (eval/report.md)
 *
 * Needs python3 with torch, onnx and onnxruntime (`python3 -m pip install torch onnx onnxruntime`; PYTHON
 * names another interpreter). Reproducible means the same evaluation figures within their confidence
 * intervals, not identical weights on another CPU.
 */
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { TRAINING_SOURCES } from '../../eval/eval-sources.js';

const ROOT = resolve(import.meta.dirname, '../../..');
const { values } = parseArgs({ options: { seed: { type: 'string', default: '13' }, 'skip-eval': { type: 'boolean', default: false }, adopt: { type: 'boolean', default: false } } });
const python = process.env['PYTHON'] ?? 'python3';
const tsx = resolve(ROOT, 'node_modules/.bin/tsx');
const HELD_OUT = 'models/.build/use-lite-tuned/without-{source}';

function run(command: string, args: readonly string[]): void {
  console.log(`\n$ ${command} ${args.join(' ')}`);
  const result = spawnSync(command, args, { cwd: ROOT, stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (exit ${result.status ?? result.signal})`);
}

const train = (extra: readonly string[]): void => run(python, ['scripts/model/fine-tune-use/train.py', '--seed', values.seed, ...extra]);

run(tsx, ['scripts/model/fine-tune-use/build-training-pairs.ts']);
train([]);
for (const source of TRAINING_SOURCES) {
  const folder = HELD_OUT.replace('{source}', source);
  train(['--exclude-source', source, '--out', folder]);
  run(tsx, ['scripts/eval/embed-sets.ts', folder, source, 'train']);
}
run(tsx, ['scripts/eval/embed-sets.ts', 'models/use-lite-tuned']);
run(tsx, ['scripts/eval/fit-default-fusion.ts', '--model', 'models/use-lite-tuned', '--held-out-models', HELD_OUT, ...(values.adopt ? ['--write'] : [])]);
if (!values['skip-eval']) run(tsx, ['scripts/eval/run-eval.ts']);
