// Worker-thread side of InferenceWorkerPool: owns one ONNX Runtime session and runs padded batches, so
// session.run() (synchronous native code inside onnxruntime-node) blocks this thread, not the event loop.
// Plain JavaScript on purpose: a worker is started from a file path, and TypeScript sources only load
// under a TS loader (tsx), not under vitest or plain node.
import { parentPort, workerData } from 'node:worker_threads';
import * as ort from 'onnxruntime-node';

const port = parentPort;
if (port === null) throw new Error('onnx-inference-worker must run in a worker thread');

let session;
try {
  session = await ort.InferenceSession.create(workerData.onnxPath, workerData.sessionOptions);
  port.postMessage({ type: 'ready', inputNames: session.inputNames, outputNames: session.outputNames });
} catch (error) {
  port.postMessage({ type: 'failed', message: error instanceof Error ? error.message : String(error) });
}

port.on('message', (message) => {
  if (message.type === 'close') {
    void session?.release().finally(() => port.close());
    return;
  }
  void (async () => {
    try {
      const feeds = {};
      for (const [name, data] of Object.entries(message.inputs)) feeds[name] = new ort.Tensor('int64', data, message.dims);
      const output = (await session.run(feeds))[message.outputName];
      if (output === undefined || !(output.data instanceof Float32Array)) throw new Error(`output ${message.outputName} is not a float32 tensor`);
      const data = output.data;
      port.postMessage({ type: 'result', id: message.id, data, dims: output.dims.map(Number) }, [data.buffer]);
    } catch (error) {
      port.postMessage({ type: 'error', id: message.id, message: error instanceof Error ? error.message : String(error) });
    }
  })();
});
