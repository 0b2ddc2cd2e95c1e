import { ONNX_WORKER_PRELUDE } from './onnx-worker-prelude.js';

/**
 * Worker-thread side of startSessionWorker, as source text run with `new Worker(source, { eval: true })` (for the
 * reasons in onnx-inference-worker-source.ts: one bundled file on Lambda, CommonJS for eval'd workers, onnxruntime-node
 * required by the path the main thread resolved). It owns one session and runs whatever feeds it is sent, returning
 * the fetched outputs: any tensor types, so a family's KV-cache runs (float16/float32 caches, int64 tokens, a bool
 * branch flag) run here while the main thread only tokenizes and reads logits.
 *
 * float16 travels as a Uint16Array of its bits both ways: structured clone may not know Float16Array, and
 * onnxruntime-node reads a float16 input held in a Float16Array as 0 bytes (see feedableFloat16), so an input's
 * tensor is made to hold a Uint16Array view.
 */
export const ONNX_SESSION_WORKER_SOURCE =
  ONNX_WORKER_PRELUDE +
  String.raw`
function toTensor(wire) {
  const tensor = new ort.Tensor(wire.type, wire.data, wire.dims);
  if (wire.type === 'float16' && !(tensor.data instanceof Uint16Array)) {
    const data = tensor.data;
    tensor.cpuData = new Uint16Array(data.buffer, data.byteOffset, tensor.size);
  }
  return tensor;
}
function toWire(tensor) {
  let data = tensor.data;
  if (tensor.type === 'float16' && !(data instanceof Uint16Array)) data = new Uint16Array(data.buffer, data.byteOffset, tensor.size);
  return { type: tensor.type, data, dims: tensor.dims.map(Number) };
}
async function runMessage(message) {
  const feeds = {};
  for (const [name, wire] of Object.entries(message.feeds)) feeds[name] = toTensor(wire);
  const results = await session.run(feeds, message.fetches);
  const outputs = {};
  const buffers = new Set();
  for (const name of message.fetches) {
    const tensor = results[name];
    if (tensor === undefined) continue;
    outputs[name] = toWire(tensor);
    buffers.add(outputs[name].data.buffer);
  }
  port.postMessage({ type: 'result', id: message.id, outputs }, [...buffers]);
}
`;
