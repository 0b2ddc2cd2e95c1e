/**
 * Cold start of one model in a fresh process, as a Lambda init would pay it: import onnxruntime-node,
 * read the model folder + build the tokenizer + create the session (loadOnnxCrossEncoder), then the first
 * request of 10 documents. Prints one JSON line. Run by run-bench.ts: `tsx cold-start-probe.ts <folder> <onnx file>`.
 */
const t0 = performance.now();
const { loadOnnxCrossEncoder } = await import('../../../shared/scoring/onnx-cross-encoder.js');
const t1 = performance.now();
const [folder, modelFile, threads] = process.argv.slice(2);
if (folder === undefined || modelFile === undefined) throw new Error('usage: cold-start-probe.ts <folder> <onnx file> [threads]');
const scorer = await loadOnnxCrossEncoder({ id: 'probe', folder, modelFile, threads: Number(threads ?? 0) || undefined });
const t2 = performance.now();
await scorer.score(
  'what is the capital of france',
  Array.from({ length: 10 }, (_, i) => `Document ${i}: Paris is the capital of France.`),
);
const t3 = performance.now();
await scorer.close();
console.log(JSON.stringify({ importMs: t1 - t0, loadMs: t2 - t1, firstScoreMs: t3 - t2 }));
