/**
 * Is "ours" below "one N-thread session" in `npm run bench` a plan effect or noise? Loads the scorer as the service
 * plans it, a second copy of that same plan (an A/A control: any gap between those two is noise), and the
 * pre-plan one in-thread session, then scores the same request with each in an order rotated every repetition
 * (no row always runs first or after the same neighbour). Prints median pairs/s in wall time and per process
 * CPU-second (all threads, what other jobs' load moves least) and each row's ratio to the one session.
 *
 *   taskset -c 0 npx tsx scripts/measure/scoring/plan-vs-one-session.ts [--model tinybert-l2] [--variant int8] [--threads 1] [--docs 256] [--reps 9]
 *
 * Pin with taskset to as many cores as --threads. Needs the bench models (npm run bench builds them).
 */
import path from 'node:path';
import { loadOnnxCrossEncoder, type OnnxCrossEncoder } from '../../../shared/scoring/onnx-cross-encoder.js';
import { benchRequest, readWords } from './bench-documents.js';
import { fmt, median } from './bench-stats.js';
import { BATCH, MODELS_DIR, VARIANTS } from './bench-models.js';

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(name);
  return i >= 0 && process.argv[i + 1] !== undefined ? process.argv[i + 1]! : fallback;
}

const model = arg('--model', 'tinybert-l2');
const variantName = arg('--variant', 'int8');
const threads = Number(arg('--threads', '1'));
const docs = Number(arg('--docs', '256'));
const reps = Number(arg('--reps', '9'));
const variant = VARIANTS.find((v) => v.name === variantName);
if (
  variant === undefined ||
  !Number.isInteger(threads) ||
  threads < 1 ||
  !Number.isInteger(docs) ||
  docs < 1 ||
  !Number.isInteger(reps) ||
  reps < 1
) {
  throw new Error(
    'usage: plan-vs-one-session.ts [--model tinybert-l2|minilm-l6] [--variant fp32|int8] [--threads N] [--docs N] [--reps N]',
  );
}

const folder = path.join(MODELS_DIR, model);
const load = (inWorkerThread?: boolean): Promise<OnnxCrossEncoder> =>
  loadOnnxCrossEncoder({
    id: model,
    folder,
    modelFile: variant.file,
    threads,
    ...BATCH,
    ...(inWorkerThread === undefined ? {} : { inWorkerThread }),
  });
const rows: { readonly label: string; readonly scorer: OnnxCrossEncoder; readonly wall: number[]; readonly cpu: number[] }[] = [
  { label: 'ours (plan)', scorer: await load(), wall: [], cpu: [] },
  { label: 'ours (plan), second copy', scorer: await load(), wall: [], cpu: [] },
  { label: `one ${threads}-thread session`, scorer: await load(false), wall: [], cpu: [] },
];
const request = benchRequest(readWords(path.join(MODELS_DIR, 'minilm-l6', 'vocab.txt')), docs, 1);
for (const row of rows) await row.scorer.score(request.query, request.documents.slice(0, 8));

for (let rep = 0; rep < reps; rep++) {
  for (let k = 0; k < rows.length; k++) {
    const row = rows[(rep + k) % rows.length]!;
    const cpuStart = process.cpuUsage();
    const started = performance.now();
    await row.scorer.score(request.query, request.documents);
    const wall = (performance.now() - started) / 1000;
    const cpu = process.cpuUsage(cpuStart);
    row.wall.push(wall);
    row.cpu.push((cpu.user + cpu.system) / 1e6);
  }
}

const base = rows[2]!;
console.log(
  `${model} ${variant.name}, ${threads} thread(s), ${docs} documents x ${reps} reps (order rotated); plan: ${JSON.stringify(rows[0]!.scorer.plan)}`,
);
for (const row of rows) {
  const wall = docs / median(row.wall);
  const cpu = docs / median(row.cpu);
  console.log(
    `${row.label.padEnd(28)} wall ${fmt(wall)} pairs/s (${fmt(wall / (docs / median(base.wall)), 2)}x), ` +
      `${fmt(cpu)} pairs/CPU-s (${fmt(cpu / (docs / median(base.cpu)), 2)}x); wall range ${fmt(docs / Math.max(...row.wall))}-${fmt(docs / Math.min(...row.wall))}`,
  );
}
for (const row of rows) await row.scorer.close();
