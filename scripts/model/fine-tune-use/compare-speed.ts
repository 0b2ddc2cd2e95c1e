/**
 * Scoring speed of the fine-tuned bi-encoder against the original, in one run on this machine: the same
 * texts embedded by each in turn (interleaved repetitions, median), no embedding cache.
 *   npx tsx scripts/model/fine-tune-use/compare-speed.ts [--texts 400] [--reps 5]
 */
import { cpus } from 'node:os';
import { parseArgs } from 'node:util';
import { loadOnnxBiEncoder } from '../../../shared/scoring/bi-encoder/index.js';
import { readSourceSplit, USE_LITE_FOLDER, USE_LITE_TUNED_FOLDER } from '../../eval/eval-sources.js';

const { values } = parseArgs({ options: { texts: { type: 'string', default: '400' }, reps: { type: 'string', default: '5' } } });
const split = await readSourceSplit('man', 'eval');
const texts = [...new Set(split.queries.flatMap((q) => q.documents))].slice(0, Number(values.texts));
const options = { threads: 2, inWorkerThread: false, smallRequestSession: false, embeddingCacheEntries: 0 } as const;
const models = {
  'use-lite': await loadOnnxBiEncoder({ id: 'use-lite', folder: USE_LITE_FOLDER, ...options }),
  'use-lite-tuned': await loadOnnxBiEncoder({ id: 'use-lite-tuned', folder: USE_LITE_TUNED_FOLDER, ...options }),
};
const times: Record<string, number[]> = { 'use-lite': [], 'use-lite-tuned': [] };
await models['use-lite'].embed(texts.slice(0, 32));
await models['use-lite-tuned'].embed(texts.slice(0, 32));
for (let rep = 0; rep < Number(values.reps); rep++) {
  for (const [name, model] of rep % 2 === 0 ? Object.entries(models) : Object.entries(models).reverse()) {
    const started = performance.now();
    await model.embed(texts);
    times[name]!.push(performance.now() - started);
  }
}
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
console.log(`${cpus()[0]?.model ?? 'unknown CPU'}, ${texts.length} man-page documents, 2 threads, ${values.reps} interleaved repetitions`);
for (const name of Object.keys(times)) console.log(`${name}: median ${median(times[name]!).toFixed(0)} ms (${times[name]!.map((t) => t.toFixed(0)).join(', ')})`);
console.log(`ratio tuned / original: ${(median(times['use-lite-tuned']!) / median(times['use-lite']!)).toFixed(3)}`);
await Promise.all(Object.values(models).map((m) => m.close()));
