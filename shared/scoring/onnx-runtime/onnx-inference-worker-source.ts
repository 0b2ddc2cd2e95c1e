import { ONNX_WORKER_PRELUDE } from './onnx-worker-prelude.js';

/**
 * Worker-thread side of InferenceWorkerPool, as source text run with `new Worker(source, { eval: true })`:
 * it owns one ONNX Runtime session and runs padded batches, so session.run() (synchronous native code
 * inside onnxruntime-node) blocks that thread, not the event loop.
 *
 * Source text, not a file, because a worker started from a file path needs that file next to the code:
 * the Lambda bundle is one esbuild output file (a sibling .mjs would be missing there), and TypeScript
 * sources only load under a TS loader. CommonJS, because eval'd workers are scripts; onnxruntime-node
 * is required by the absolute path the main thread resolved (workerData.ortPath), so it is the same
 * package the main thread uses, wherever the bundle puts node_modules.
 */
export const ONNX_INFERENCE_WORKER_SOURCE =
  ONNX_WORKER_PRELUDE +
  String.raw`
async function runMessage(message) {
  const feeds = {};
  for (const [name, data] of Object.entries(message.inputs)) feeds[name] = new ort.Tensor('int64', data, message.dims);
  const output = (await session.run(feeds))[message.outputName];
  if (output === undefined || !(output.data instanceof Float32Array)) throw new Error('output ' + message.outputName + ' is not a float32 tensor');
  const data = output.data;
  port.postMessage({ type: 'result', id: message.id, data, dims: output.dims.map(Number) }, [data.buffer]);
}
`;
