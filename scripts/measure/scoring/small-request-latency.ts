/**
 * Single-request latency by request size and execution setup, one request at a time: the plan the service
 * runs (chooseExecutionPlan) against the pre-plan single in-thread session with N intra-op threads and the
 * pool alone (no small-request session). Setups are interleaved within each repeat (the machine may be shared);
 * prints p50 per setup and the ratio old / plan (>= 1: the plan is not slower), and checks scores are identical.
 *
 *   tsx scripts/measure/scoring/small-request-latency.ts [--threads 2] [--sizes 10,20,40,100,1000] [--reps 15] [--variants int8,fp32]
 */
import path from 'node:path';
import { loadOnnxCrossEncoder, type OnnxCrossEncoder, type OnnxCrossEncoderOptions } from '../../../shared/scoring/onnx-cross-encoder.js';
import { benchRequest, readWords } from './bench-documents.js';
import { BATCH, MODELS, MODELS_DIR, VARIANTS } from './bench-models.js';
import { fmt, median } from './bench-stats.js';

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1]! : fallback;
}

const threads = Number(arg('--threads', '2'));
const sizes = arg('--sizes', '10,20,40,100,1000').split(',').map(Number);
const reps = Number(arg('--reps', '15'));
const variants = arg('--variants', 'int8,fp32').split(',');
const models = arg('--models', MODELS.map((m) => m.name).join(',')).split(',');

const SETUPS: { name: string; options: Partial<OnnxCrossEncoderOptions> }[] = [
  { name: 'plan', options: {} },
  { name: 'one in-thread session', options: { inWorkerThread: false } },
  { name: 'pool only', options: { smallRequestSession: false } },
];

const words = readWords(path.join(MODELS_DIR, 'minilm-l6', 'vocab.txt'));

for (const model of MODELS.filter((m) => models.includes(m.name))) {
  for (const variant of VARIANTS.filter((v) => variants.includes(v.name))) {
    const folder = path.join(MODELS_DIR, model.name);
    const scorers: OnnxCrossEncoder[] = [];
    for (const setup of SETUPS)
      scorers.push(await loadOnnxCrossEncoder({ id: setup.name, folder, modelFile: variant.file, threads, ...BATCH, ...setup.options }));
    // Steady state: the small-request session loads in the background after the pool.
    for (const scorer of scorers) await scorer.smallRequestSessionReady();
    for (const scorer of scorers) await scorer.score('warm up', ['warm up document', 'another one']);
    for (const size of sizes) {
      // Fewer repeats for large requests: each costs seconds.
      const count = Math.max(2, Math.round(reps / Math.max(1, size / 40)));
      const samples = SETUPS.map(() => [] as number[]);
      let deviation = 0;
      for (let rep = 0; rep < count; rep++) {
        const request = benchRequest(words, size, 100 + rep);
        const results: number[][] = [];
        // Rotate the order each repeat so no setup always runs right after another's warm cache.
        for (let k = 0; k < scorers.length; k++) {
          const index = (k + rep) % scorers.length;
          const start = performance.now();
          const result = await scorers[index]!.score(request.query, request.documents);
          samples[index]!.push(performance.now() - start);
          results[index] = result.scores;
        }
        for (const scores of results.slice(1)) scores.forEach((s, i) => (deviation = Math.max(deviation, Math.abs(s - results[0]![i]!))));
      }
      const p50 = samples.map((s) => median(s));
      console.log(
        `${model.label} ${variant.name} ${threads} thr ${size} docs (${count} reps): ` +
          SETUPS.map((setup, i) => `${setup.name} ${fmt(p50[i], 1)} ms`).join(', ') +
          `; one session / plan ${fmt(p50[1]! / p50[0]!, 2)}x, pool only / plan ${fmt(p50[2]! / p50[0]!, 2)}x; max |diff| ${deviation.toExponential(1)}` +
          ` [plan: ${JSON.stringify(scorers[0]!.plan)}]`,
      );
    }
    for (const scorer of scorers) await scorer.close();
  }
}
