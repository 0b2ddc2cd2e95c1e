import * as ort from 'onnxruntime-node';
import { InferenceWorkerPool, type BatchFeeds, type BatchOutput } from './inference-worker-pool.js';
import { onnxSessionOptions } from './session-options.js';

export type { BatchFeeds, BatchOutput } from './inference-worker-pool.js';

/**
 * Runs one padded batch through a model's graph, in this thread or on an inference worker: the ONNX Runtime layer a
 * family's scorer drives. A family supplies only its feeds (encoding) and how it reads the output.
 */
export interface BatchRunner {
  readonly inputNames: readonly string[];
  readonly outputNames: readonly string[];
  /** Batches that can usefully run at once (1 in-thread, pool size with workers). */
  readonly parallelism: number;
  run(feeds: BatchFeeds): Promise<BatchOutput>;
  release(): Promise<void>;
}

/** Which graph output a family reads; default its first. */
export interface RunnerOutput {
  readonly outputName?: string;
}

/** A session in this thread: session.run() holds the event loop for the whole batch (small requests, one CPU). */
function sessionRunner(session: ort.InferenceSession, modelId: string, output: RunnerOutput = {}): BatchRunner {
  const outputName = output.outputName ?? session.outputNames[0]!;
  return {
    inputNames: session.inputNames,
    outputNames: session.outputNames,
    parallelism: 1,
    async run(feeds) {
      const tensors: Record<string, ort.Tensor> = {};
      for (const [name, data] of Object.entries(feeds.inputs)) tensors[name] = new ort.Tensor('int64', data, [...feeds.dims]);
      const output = (await session.run(tensors))[outputName];
      if (output === undefined || !(output.data instanceof Float32Array)) {
        throw new Error(`model ${modelId}: output ${outputName} is not a float32 tensor`);
      }
      return { data: output.data, dims: output.dims.map(Number) };
    },
    release: () => session.release(),
  };
}

/** An in-thread session of the model file with `threads` intra-op threads. */
export async function startSessionRunner(
  onnxPath: string,
  threads: number,
  modelId: string,
  output: RunnerOutput = {},
): Promise<BatchRunner> {
  return sessionRunner(await ort.InferenceSession.create(onnxPath, onnxSessionOptions(threads)), modelId, output);
}

/** `size` sessions on worker threads, `threads` intra-op threads each: the event loop stays free while they run. */
export async function startPoolRunner(onnxPath: string, size: number, threads: number, output: RunnerOutput = {}): Promise<BatchRunner> {
  const pool = await InferenceWorkerPool.start({ onnxPath, size, sessionOptions: onnxSessionOptions(threads) });
  const outputName = output.outputName ?? pool.outputNames[0]!;
  return {
    inputNames: pool.inputNames,
    outputNames: pool.outputNames,
    parallelism: size,
    run: (feeds) => pool.run(feeds, outputName),
    release: () => pool.close(),
  };
}
