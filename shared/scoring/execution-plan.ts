import { createReadStream } from 'node:fs';
import { totalmem } from 'node:os';

/** How one scorer spends its CPUs: sessions on inference worker threads x intra-op threads each, or in-thread. */
export interface ExecutionPlan {
  /** Run sessions on worker threads (false: one session on the calling thread). */
  readonly inWorkerThreads: boolean;
  /** Sessions, one per worker thread (1 when in-thread). */
  readonly workers: number;
  /** ONNX Runtime intra-op threads of each session. */
  readonly intraOpThreads: number;
}

export interface ExecutionPlanInput {
  /** CPUs the scorer may use (RERANK_THREADS; on Lambda the vCPUs of the memory size). */
  readonly threads: number;
  /** Size of the ONNX file: each worker holds its own copy of the weights. */
  readonly modelBytes: number;
  /** Memory the process may use; default: the Lambda memory size, else the machine's. */
  readonly memoryBytes?: number;
}

/**
 * Sessions may use at most this share of memory together (weights + prepacked copies + activations are
 * ~3x the file): the rest is for Node, the tokenizer and the request.
 */
const SESSION_MEMORY_SHARE = 0.5;
const SESSION_BYTES_PER_MODEL_BYTE = 3;

export function processMemoryBytes(env: NodeJS.ProcessEnv = process.env): number {
  const lambdaMb = Number(env['AWS_LAMBDA_FUNCTION_MEMORY_SIZE']);
  return Number.isFinite(lambdaMb) && lambdaMb > 0 ? lambdaMb * 2 ** 20 : totalmem();
}

/**
 * Chosen by measurement (bench/report.md, "Execution plans"): onnxruntime-node's run() blocks its
 * thread, and one N-thread session spends much of each run in parallel-loop setup and barriers on the
 * small GEMMs of one batch; N single-threaded sessions each working through whole batches (costliest
 * first) scale close to linearly instead. So: one session per CPU on worker threads, as many as memory
 * allows (a large model on a small function gets fewer sessions with more intra-op threads each).
 * One CPU: one in-thread session (a worker would only add a message hop).
 */
export function chooseExecutionPlan(input: ExecutionPlanInput): ExecutionPlan {
  const threads = Math.max(1, Math.floor(input.threads));
  if (threads === 1) return { inWorkerThreads: false, workers: 1, intraOpThreads: 1 };
  const memory = input.memoryBytes ?? processMemoryBytes();
  const perSession = Math.max(1, input.modelBytes * SESSION_BYTES_PER_MODEL_BYTE);
  const fitting = Math.max(1, Math.floor((memory * SESSION_MEMORY_SHARE) / perSession));
  const workers = Math.min(threads, fitting);
  return { inWorkerThreads: true, workers, intraOpThreads: Math.max(1, Math.floor(threads / workers)) };
}

/**
 * True when the ONNX graph quantizes activations per run (DynamicQuantizeLinear, what `quantize_dynamic`
 * emits): its scores then depend on which pairs share a batch, so the scheduler must keep the batches it
 * always made. Op types are plain strings in the protobuf; streamed, so a multi-GB file is not read at once.
 */
export async function quantizesActivationsPerRun(onnxPath: string): Promise<boolean> {
  const needle = Buffer.from('DynamicQuantizeLinear');
  let tail = Buffer.alloc(0);
  for await (const chunk of createReadStream(onnxPath, { highWaterMark: 1 << 20 }) as AsyncIterable<Buffer>) {
    const window = Buffer.concat([tail, chunk]);
    if (window.includes(needle)) return true;
    tail = window.subarray(Math.max(0, window.length - needle.length + 1));
  }
  return false;
}
