import { Worker } from 'node:worker_threads';
import * as ort from 'onnxruntime-node';
import { ORT_PATH, workerExecArgv } from './inference-worker-pool.js';
import type { OnnxSession } from './onnx-session.js';
import { ONNX_SESSION_WORKER_SOURCE } from './onnx-session-worker-source.js';
import { loadFailure, settleRun, type PendingRun } from './worker-runs.js';

/** A tensor as it crosses to and from the worker (float16 as its Uint16Array bits). */
interface WireTensor {
  readonly type: ort.Tensor.Type;
  readonly data: ArrayBufferView;
  readonly dims: readonly number[];
}

type WorkerMessage =
  | {
      type: 'ready';
      inputNames: string[];
      outputNames: string[];
      inputMetadata: ort.InferenceSession.ValueMetadata[];
      outputMetadata: ort.InferenceSession.ValueMetadata[];
    }
  | { type: 'failed'; message: string }
  | { type: 'result'; id: number; outputs: Record<string, WireTensor> }
  | { type: 'error'; id: number; message: string };

function toWire(tensor: ort.Tensor): WireTensor {
  const data = tensor.data as ArrayBufferView;
  // float16 crosses as its bits (a Uint16Array view of the same bytes).
  const bits =
    tensor.type === 'float16' && !(data instanceof Uint16Array) ? new Uint16Array(data.buffer, data.byteOffset, tensor.size) : data;
  return { type: tensor.type, data: bits, dims: tensor.dims.map(Number) };
}

const fromWire = (wire: WireTensor): ort.Tensor => new ort.Tensor(wire.type as 'float32', wire.data as Float32Array, [...wire.dims]);

/**
 * One ONNX Runtime session on a worker thread, driven run by run from this thread: session.run() holds the worker's
 * thread, not the event loop, so a server keeps answering /health and small requests while an LLM reranker scores a
 * large request. Feeds are transferred, not copied (the callers never reuse a feed after its run: every run's tokens
 * and cache are fresh arrays), and so are the outputs.
 */
export function startSessionWorker(onnxPath: string, sessionOptions: ort.InferenceSession.SessionOptions): Promise<OnnxSession> {
  const worker = new Worker(ONNX_SESSION_WORKER_SOURCE, {
    eval: true,
    execArgv: workerExecArgv(),
    workerData: { ortPath: ORT_PATH, onnxPath, sessionOptions },
  });
  const pending = new Map<number, PendingRun<Record<string, ort.Tensor>>>();
  let nextId = 0;
  let closed = false;
  const failAll = (error: Error) => {
    for (const run of pending.values()) run.reject(error);
    pending.clear();
  };
  return new Promise((resolve, reject) => {
    worker.on('message', (message: WorkerMessage) => {
      switch (message.type) {
        case 'ready': {
          // A worker with nothing in flight must not keep the process alive (tests, CLI scripts).
          worker.unref();
          const session: OnnxSession = {
            inputNames: message.inputNames,
            outputNames: message.outputNames,
            inputMetadata: message.inputMetadata,
            outputMetadata: message.outputMetadata,
            run(feeds, fetches) {
              if (closed) return Promise.reject(new Error('session worker is closed'));
              const id = nextId++;
              const wire: Record<string, WireTensor> = {};
              for (const [name, tensor] of Object.entries(feeds)) wire[name] = toWire(tensor);
              const buffers = new Set<ArrayBuffer>();
              for (const { data } of Object.values(wire)) if (data.buffer instanceof ArrayBuffer) buffers.add(data.buffer);
              return new Promise((resolveRun, rejectRun) => {
                pending.set(id, { resolve: resolveRun, reject: rejectRun });
                worker.ref();
                worker.postMessage({ type: 'run', id, feeds: wire, fetches: [...fetches] }, [...buffers]);
              });
            },
            async release() {
              if (closed) return;
              closed = true;
              const exited = new Promise((done) => worker.once('exit', done));
              worker.ref();
              worker.postMessage({ type: 'close' });
              await exited;
              failAll(new Error('session worker closed'));
            },
          };
          resolve(session);
          break;
        }
        case 'failed':
          reject(loadFailure(worker, 'session worker', onnxPath, message.message));
          break;
        case 'result':
          settleRun(worker, pending, message.id, 'session worker', {
            value: Object.fromEntries(Object.entries(message.outputs).map(([name, wire]) => [name, fromWire(wire)])),
          });
          break;
        case 'error':
          settleRun(worker, pending, message.id, 'session worker', { error: message.message });
          break;
      }
    });
    worker.on('error', (error) => {
      reject(error);
      failAll(error);
    });
  });
}
