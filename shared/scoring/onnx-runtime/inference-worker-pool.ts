import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { InferenceSession } from 'onnxruntime-node';
import { ONNX_INFERENCE_WORKER_SOURCE } from './onnx-inference-worker-source.js';
import { loadFailure, settleRun, type PendingRun } from './worker-runs.js';

/** One padded batch: int64 inputs by graph input name, all of shape dims ([rows, width]). */
export interface BatchFeeds {
  readonly dims: readonly [number, number];
  readonly inputs: Readonly<Record<string, BigInt64Array>>;
}

/** Model output of one batch (float32 data, row-major). */
export interface BatchOutput {
  readonly data: Float32Array;
  readonly dims: readonly number[];
}

export interface InferenceWorkerPoolOptions {
  readonly onnxPath: string;
  /** Worker threads, each with its own session (memory x size). */
  readonly size: number;
  /** Session options of every worker (intra-op threads are per worker). */
  readonly sessionOptions: InferenceSession.SessionOptions;
}

type WorkerMessage =
  | { type: 'ready'; inputNames: string[]; outputNames: string[] }
  | { type: 'failed'; message: string }
  | { type: 'result'; id: number; data: Float32Array; dims: number[] }
  | { type: 'error'; id: number; message: string };

interface PoolWorker {
  readonly worker: Worker;
  readonly pending: Map<number, PendingRun<BatchOutput>>;
}

/** onnxruntime-node as the main thread resolves it, handed to the eval'd workers (see ONNX_INFERENCE_WORKER_SOURCE). */
export const ORT_PATH = createRequire(import.meta.url).resolve('onnxruntime-node');

/**
 * ONNX Runtime sessions on worker threads. onnxruntime-node's session.run() holds the calling thread for the
 * whole inference, so N sessions on N threads are how one request's batches run in parallel (and the
 * event loop of a server stays free for health checks, parsing and small reranks). Batches go to the
 * worker with the fewest runs in flight; the scorer keeps at most `size` of one request's batches in
 * flight, so a concurrent small request's batch can overtake a large request's remaining batches.
 */
export class InferenceWorkerPool {
  #nextId = 0;
  #closed = false;

  readonly #workers: readonly PoolWorker[];

  private constructor(
    workers: readonly PoolWorker[],
    readonly inputNames: readonly string[],
    readonly outputNames: readonly string[],
  ) {
    this.#workers = workers;
  }

  static async start(options: InferenceWorkerPoolOptions): Promise<InferenceWorkerPool> {
    const started = await Promise.allSettled(
      Array.from({ length: Math.max(1, options.size) }, () => startWorker(options.onnxPath, options.sessionOptions)),
    );
    const failure = started.find((result) => result.status === 'rejected');
    if (failure !== undefined) {
      await Promise.all(started.map((result) => (result.status === 'fulfilled' ? result.value.worker.worker.terminate() : undefined)));
      throw failure.reason instanceof Error ? failure.reason : new Error(String(failure.reason));
    }
    const ready = started.map((result) => (result as PromiseFulfilledResult<Awaited<ReturnType<typeof startWorker>>>).value);
    return new InferenceWorkerPool(
      ready.map((r) => r.worker),
      ready[0]!.inputNames,
      ready[0]!.outputNames,
    );
  }

  /** Runs one batch on the least busy worker, reading `outputName` (default the first output); the input buffers are transferred (unusable afterwards). */
  run(feeds: BatchFeeds, outputName: string = this.outputNames[0]!): Promise<BatchOutput> {
    if (this.#closed) return Promise.reject(new Error('inference worker pool is closed'));
    const target = this.#workers.reduce((best, w) => (w.pending.size < best.pending.size ? w : best));
    const id = this.#nextId++;
    return new Promise<BatchOutput>((resolve, reject) => {
      target.pending.set(id, { resolve, reject });
      target.worker.ref();
      const buffers = Object.values(feeds.inputs).map((data) => data.buffer as ArrayBuffer);
      target.worker.postMessage({ type: 'run', id, dims: feeds.dims, inputs: feeds.inputs, outputName }, buffers);
    });
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await Promise.all(
      this.#workers.map(async ({ worker, pending }) => {
        const exited = new Promise((resolve) => worker.once('exit', resolve));
        // An idle worker is unref'd; without this a script whose last step is close() would end (exit 13)
        // before the worker has released its session.
        worker.ref();
        worker.postMessage({ type: 'close' });
        await exited;
        for (const run of pending.values()) run.reject(new Error('inference worker pool closed'));
      }),
    );
  }
}

/**
 * The process's Node flags minus --input-type: workers inherit execArgv, and `--input-type=module` (a
 * process started with `node --input-type=module -e ...`) would make the eval'd CommonJS source ESM.
 */
export function workerExecArgv(): string[] {
  const out: string[] = [];
  const args = process.execArgv;
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--input-type') i++;
    else if (!args[i]!.startsWith('--input-type=')) out.push(args[i]!);
  }
  return out;
}

function startWorker(
  onnxPath: string,
  sessionOptions: InferenceSession.SessionOptions,
): Promise<{ worker: PoolWorker; inputNames: string[]; outputNames: string[] }> {
  const worker = new Worker(ONNX_INFERENCE_WORKER_SOURCE, {
    eval: true,
    execArgv: workerExecArgv(),
    workerData: { ortPath: ORT_PATH, onnxPath, sessionOptions },
  });
  const pending = new Map<number, PendingRun<BatchOutput>>();
  return new Promise((resolve, reject) => {
    worker.on('message', (message: WorkerMessage) => {
      switch (message.type) {
        case 'ready':
          // A worker with nothing in flight must not keep the process alive (tests, CLI scripts).
          worker.unref();
          resolve({ worker: { worker, pending }, inputNames: message.inputNames, outputNames: message.outputNames });
          break;
        case 'failed':
          reject(loadFailure(worker, 'inference worker', onnxPath, message.message));
          break;
        case 'result':
          settleRun(worker, pending, message.id, 'inference worker', { value: { data: message.data, dims: message.dims } });
          break;
        case 'error':
          settleRun(worker, pending, message.id, 'inference worker', { error: message.message });
          break;
      }
    });
    worker.on('error', (error) => {
      reject(error);
      for (const run of pending.values()) run.reject(error);
      pending.clear();
    });
  });
}
