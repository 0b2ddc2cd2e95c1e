/**
 * What every ONNX worker source shares (eval'd CommonJS: see onnx-inference-worker-source.ts for why source text):
 * onnxruntime-node required by the path the main thread resolved, one session created from workerData, a 'ready'
 * message with its input and output names and metadata (or 'failed'), and the message loop: 'close' releases the
 * session; any other message goes to `runMessage(message)`, which the worker source defines after this prelude (a
 * function declaration, so it is hoisted), and a failure is answered as an 'error' for that message's id.
 */
export const ONNX_WORKER_PRELUDE = String.raw`
'use strict';
const { parentPort, workerData } = require('node:worker_threads');
const ort = require(workerData.ortPath);
const port = parentPort;
let session;
const metadata = (list) => (list || []).map((m) => JSON.parse(JSON.stringify(m)));
const loaded = ort.InferenceSession.create(workerData.onnxPath, workerData.sessionOptions).then(
  (created) => {
    session = created;
    port.postMessage({
      type: 'ready',
      inputNames: session.inputNames,
      outputNames: session.outputNames,
      inputMetadata: metadata(session.inputMetadata),
      outputMetadata: metadata(session.outputMetadata),
    });
  },
  (error) => port.postMessage({ type: 'failed', message: error instanceof Error ? error.message : String(error) }),
);
port.on('message', (message) => {
  if (message.type === 'close') {
    void loaded.then(() => (session ? session.release() : undefined)).finally(() => port.close());
    return;
  }
  runMessage(message).catch((error) => port.postMessage({ type: 'error', id: message.id, message: error instanceof Error ? error.message : String(error) }));
});
`;
