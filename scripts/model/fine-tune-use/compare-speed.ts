/**
 * Scoring speed of the fine-tuned bi-encoder against the original, in one run on this machine: the same
 * texts embedded by each in turn (interleaved repetitions), no embedding cache. On a shared machine wall time swings
 * with the load; the process CPU time of a run (1 ONNX thread: no spinning) and the median of the per-repetition
 * ratios are the steadier figures.
 *   npx tsx scripts/model/fine-tune-use/compare-speed.ts [--texts 400] [--reps 5] [--threads 1]
 */
import { cpus } from 'node:os';
import { parseArgs } from 'node:util';
import { loadOnnxBiEncoder } from '../../../shared/scoring/bi-encoder/index.js';
import { readSourceSplit, USE_LITE_FOLDER, USE_LITE_TUNED_FOLDER } from '../../eval/eval-sources.js';

const { values } = parseArgs({
  options: { texts: { type: 'string', default: '400' }, reps: { type: 'string', default: '5' }, threads: { type: 'string', default: '1' } },
});
const split = await readSourceSplit('man', 'eval');
const texts = [...new Set(split.queries.flatMap((q) => q.documents))].slice(0, Number(values.texts));
const options = { threads: Number(values.threads), inWorkerThread: false, smallRequestSession: false, embeddingCacheEntries: 0 } as const;
const models = {
  'use-lite': await loadOnnxBiEncoder({ id: 'use-lite', folder: USE_LITE_FOLDER, ...options }),
  'use-lite-tuned': await loadOnnxBiEncoder({ id: 'use-lite-tuned', folder: USE_LITE_TUNED_FOLDER, ...options }),
};
const wall: Record<string, number[]> = { 'use-lite': [], 'use-lite-tuned': [] };
const cpu: Record<string, number[]> = { 'use-lite': [], 'use-lite-tuned': [] };
await models['use-lite'].embed(texts.slice(0, 32));
await models['use-lite-tuned'].embed(texts.slice(0, 32));
for (let rep = 0; rep < Number(values.reps); rep++) {
  for (const [name, model] of rep % 2 === 0 ? Object.entries(models) : Object.entries(models).reverse()) {
    const started = performance.now();
    const cpuStarted = process.cpuUsage();
    await model.embed(texts);
    const used = process.cpuUsage(cpuStarted);
    wall[name]!.push(performance.now() - started);
    cpu[name]!.push((used.user + used.system) / 1000);
  }
}
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const ratios = (m: Record<string, number[]>): number[] => m['use-lite-tuned']!.map((t, i) => t / m['use-lite']![i]!);
console.log(
  `${cpus()[0]?.model ?? 'unknown CPU'}, ${texts.length} man-page documents, ${values.threads} ONNX thread(s), ${values.reps} interleaved repetitions`,
);
for (const name of Object.keys(wall)) {
  console.log(
    `${name}: wall median ${median(wall[name]!).toFixed(0)} ms (${wall[name]!.map((t) => t.toFixed(0)).join(', ')}); CPU median ${median(cpu[name]!).toFixed(0)} ms`,
  );
}
console.log(
  `tuned / original, median of the per-repetition ratios: wall ${median(ratios(wall)).toFixed(3)}, CPU ${median(ratios(cpu)).toFixed(3)}`,
);
await Promise.all(Object.values(models).map((m) => m.close()));
