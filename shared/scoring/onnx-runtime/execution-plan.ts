import { totalmem } from 'node:os';
import { graphHasOpType } from './onnx-op-scan.js';

/** How one scorer spends its CPUs: sessions on inference worker threads x intra-op threads each, or in-thread. */
export interface ExecutionPlan {
  /** Run sessions on worker threads (false: one session on the calling thread). */
  readonly inWorkerThreads: boolean;
  /** Sessions, one per worker thread (1 when in-thread). */
  readonly workers: number;
  /** ONNX Runtime intra-op threads of each session. */
  readonly intraOpThreads: number;
  /**
   * One more session, on the scorer's own thread, with every CPU as intra-op threads: a request too small to
   * keep every pool session busy runs there instead (see prefersOneSession). In-thread because a worker's message
   * hop cost ~6 ms per 10-document TinyBERT request (quiet machine, 55 vs 48 ms), and a small run blocks the event
   * loop only for tens of milliseconds, as every request did before the pool. Absent when in-thread, when the
   * pool sessions already have several intra-op threads, or when memory has no room for another copy.
   */
  readonly smallRequestSession?: { readonly intraOpThreads: number };
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
  const intraOpThreads = Math.max(1, Math.floor(threads / workers));
  if (intraOpThreads === 1 && fitting > workers)
    return { inWorkerThreads: true, workers, intraOpThreads, smallRequestSession: { intraOpThreads: threads } };
  return { inWorkerThreads: true, workers, intraOpThreads };
}

/**
 * Speedup of one session with N intra-op threads over one thread, on whole requests: ~sqrt(N), from the
 * measurements of this scorer on a 16-core machine (fp32 1/2/4/6/8 threads: 12.3/19.1/26.0/32.0/35.7
 * pairs/s, i.e. 1.55/2.1/2.6/2.9x) and this machine's bench (2 threads ~1.5x).
 */
function intraOpSpeedup(threads: number): number {
  return Math.sqrt(Math.max(1, threads));
}

/**
 * Whether a request finishes sooner as its plain length batches on one session with all `threads` intra-op
 * threads than as the pool's batches (`poolCosts`, estimated with batchCost) on `workers` single-threaded
 * sessions. The pool's finish time is the longest worker's share under the scorer's costliest-first
 * schedule; the one session's is the plain batches' total cost / intraOpSpeedup. Measured (bench/report.md,
 * "Latency per request"): 10 documents of a dynamically quantized graph are 8 + 2 pairs, so on 2 workers one
 * worker scores 8 pairs alone while one 2-thread session scores them ~1.5x faster; from ~20 documents on the
 * pool's batches balance and it wins.
 */
export function prefersOneSession(poolCosts: readonly number[], plainCosts: readonly number[], workers: number, threads: number): boolean {
  const loads = new Array<number>(Math.max(1, workers)).fill(0);
  // Costliest first, each batch to the worker that frees up first (what forEachBounded over the pool does).
  for (const cost of [...poolCosts].sort((a, b) => b - a)) {
    let least = 0;
    for (let i = 1; i < loads.length; i++) if (loads[i]! < loads[least]!) least = i;
    loads[least]! += cost;
  }
  const poolFinish = Math.max(...loads);
  const oneSessionFinish = plainCosts.reduce((sum, cost) => sum + cost, 0) / intraOpSpeedup(threads);
  return oneSessionFinish < poolFinish;
}

/**
 * True when the ONNX graph quantizes activations per run (DynamicQuantizeLinear, what `quantize_dynamic`
 * emits): its scores then depend on which pairs share a batch, so the scheduler must keep the batches it
 * always made. The graph's nodes are searched, not its weights (graphHasOpType).
 */
export function quantizesActivationsPerRun(onnxPath: string): Promise<boolean> {
  return graphHasOpType(onnxPath, 'DynamicQuantizeLinear');
}
