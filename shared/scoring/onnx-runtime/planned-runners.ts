import { stat } from 'node:fs/promises';
import { forEachBounded } from '../../core/for-each-bounded.js';
import { batchCost, scheduleBatches, type BatchSchedule } from '../length-batches.js';
import { startPoolRunner, startSessionRunner, type BatchFeeds, type BatchRunner } from './batch-runner.js';
import { chooseExecutionPlan, prefersOneSession, type ExecutionPlan } from './execution-plan.js';

/** How a family asks for its sessions: the CPU budget, or an explicit placement (tests, bench). */
export interface RunnerPlacement {
  /**
   * CPUs the scorer may use. Unless inWorkerThread is given, chooseExecutionPlan splits them into sessions x
   * intra-op threads; with inWorkerThread given, they are the intra-op threads of each session.
   */
  readonly threads: number;
  /** true = `workers` worker threads x `threads` intra-op threads each; false = one in-thread session. */
  readonly inWorkerThread?: boolean;
  readonly workers?: number;
  /** Whether the plan may load its small-request session (one more copy of the model); default true. */
  readonly smallRequestSession?: boolean;
}

export interface PlannedRunnersOptions extends RunnerPlacement {
  readonly modelId: string;
  readonly onnxPath: string;
  /** The graph output the family reads (default: its first output). */
  readonly outputName?: string;
  /**
   * A tiny batch run once on the small-request session before it takes requests: a new multi-threaded session's
   * first run is slow (thread pool start), and that should not land on a request. A function of the graph's
   * inputs: the family feeds only what the graph declares.
   */
  readonly warmupFeeds: (inputNames: readonly string[]) => BatchFeeds;
}

/** The batch schedule of a family minus how many run at once (the runners know that). */
export type FamilySchedule = Omit<BatchSchedule, 'parallelism'>;

/**
 * The ONNX sessions of one model as the execution plan places them - a pool on worker threads (or one in-thread
 * session) and, where the plan has room, an in-thread small-request session - and the one way a family runs a
 * request's batches on them. A family supplies only its feeds and how it reads an output; which session runs
 * which batch, in which order and how many at once is decided here for every family alike.
 */
export class PlannedRunners {
  /** Requests running now: the small-request session is only for a request that has the CPUs to itself. */
  #inFlight = 0;
  #small: { readonly runner: BatchRunner; readonly threads: number } | undefined;
  #smallLoading: Promise<boolean> = Promise.resolve(false);
  #closed = false;

  readonly #runner: BatchRunner;

  private constructor(
    readonly plan: ExecutionPlan,
    runner: BatchRunner,
  ) {
    this.#runner = runner;
  }

  static async start(options: PlannedRunnersOptions): Promise<PlannedRunners> {
    const chosen = await placementPlan(options, options.onnxPath);
    const plan: ExecutionPlan =
      options.smallRequestSession === false
        ? { inWorkerThreads: chosen.inWorkerThreads, workers: chosen.workers, intraOpThreads: chosen.intraOpThreads }
        : chosen;
    const output = options.outputName === undefined ? {} : { outputName: options.outputName };
    const runner = plan.inWorkerThreads
      ? await startPoolRunner(options.onnxPath, plan.workers, plan.intraOpThreads, output)
      : await startSessionRunner(options.onnxPath, plan.intraOpThreads, options.modelId, output);
    const runners = new PlannedRunners(plan, runner);
    if (plan.smallRequestSession !== undefined) {
      // Loaded after the pool and not awaited: cold start stays what it was (measured: loading both at once made
      // the load ~1.7x longer), and until it is ready every request takes the pool.
      const threads = plan.smallRequestSession.intraOpThreads;
      runners.#attachSmall(
        startSessionRunner(options.onnxPath, threads, options.modelId, output).then(async (small) => {
          try {
            await small.run(options.warmupFeeds(small.inputNames));
          } catch (error) {
            await small.release();
            throw error;
          }
          return { runner: small, threads };
        }),
      );
    }
    return runners;
  }

  get inputNames(): readonly string[] {
    return this.#runner.inputNames;
  }

  get outputNames(): readonly string[] {
    return this.#runner.outputNames;
  }

  /**
   * Resolves when the small-request session has loaded (true) or will not be used (false: none in the plan,
   * failed to load - no memory for one more copy is not an error, the pool works without it - or closed first).
   */
  smallRequestSessionReady(): Promise<boolean> {
    return this.#smallLoading;
  }

  /**
   * Runs a request's batches (rows by their token lengths) where they finish first, `runBatch` building each
   * batch's feeds and reading its output. At most `parallelism` batches of one request are in flight, each free
   * session taking the next costliest: every worker stays busy, and a concurrent small request can slip its batch
   * in between a large request's batches instead of queueing behind all of them. Past `signal` no further batch
   * starts.
   */
  async runBatches(
    lengths: readonly number[],
    schedule: FamilySchedule,
    runBatch: (batch: readonly number[], runner: BatchRunner) => Promise<void>,
    signal?: AbortSignal,
  ): Promise<void> {
    if (this.#closed) throw new Error('the model sessions are closed');
    const { runner, batches } = this.#route(lengths, schedule);
    this.#inFlight++;
    try {
      await forEachBounded(batches, runner.parallelism, async (batch) => {
        signal?.throwIfAborted();
        await runBatch(batch, runner);
      });
    } finally {
      this.#inFlight--;
    }
  }

  /**
   * Where a request runs, and as which batches. Pool: costliest first across `parallelism` sessions (see
   * scheduleBatches; in-thread, or for a graph that is not batch-invariant, the plain length batches). A request
   * too small to keep every pool session busy (prefersOneSession), arriving while no other request is being
   * scored: the plain length batches on the small-request session, all CPUs on each batch. Either way the
   * scores are those of one session with the plain batches.
   */
  #route(lengths: readonly number[], schedule: FamilySchedule): { runner: BatchRunner; batches: number[][] } {
    const pool = { runner: this.#runner, batches: scheduleBatches(lengths, { ...schedule, parallelism: this.#runner.parallelism }) };
    if (this.#small === undefined || this.#inFlight > 0) return pool;
    const plain = scheduleBatches(lengths, { ...schedule, parallelism: 1 });
    const cost = (batch: number[]): number =>
      batchCost(batch.length, Math.max(...batch.map((index) => lengths[index]!)), schedule.hiddenSize);
    return prefersOneSession(pool.batches.map(cost), plain.map(cost), this.#runner.parallelism, this.#small.threads)
      ? { runner: this.#small.runner, batches: plain }
      : pool;
  }

  #attachSmall(loading: Promise<{ runner: BatchRunner; threads: number }>): void {
    this.#smallLoading = loading.then(
      async (small) => {
        if (this.#closed) {
          await small.runner.release();
          return false;
        }
        this.#small = small;
        return true;
      },
      () => false,
    );
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await Promise.all([this.#runner.release(), this.#smallLoading.then(() => this.#small?.runner.release())]);
  }
}

/** The placement options a family's caller set (absent ones stay absent: exactOptionalPropertyTypes). */
export function explicitPlacement(options: Partial<RunnerPlacement>): Omit<RunnerPlacement, 'threads'> {
  return {
    ...(options.inWorkerThread === undefined ? {} : { inWorkerThread: options.inWorkerThread }),
    ...(options.workers === undefined ? {} : { workers: options.workers }),
    ...(options.smallRequestSession === undefined ? {} : { smallRequestSession: options.smallRequestSession }),
  };
}

/** The explicit inWorkerThread/workers/threads when given, else chooseExecutionPlan from the CPU budget and model size. */
async function placementPlan(placement: RunnerPlacement, onnxPath: string): Promise<ExecutionPlan> {
  const threads = Math.max(1, placement.threads);
  if (placement.inWorkerThread === true)
    return { inWorkerThreads: true, workers: Math.max(1, placement.workers ?? 1), intraOpThreads: threads };
  if (placement.inWorkerThread === false) return { inWorkerThreads: false, workers: 1, intraOpThreads: threads };
  return chooseExecutionPlan({ threads, modelBytes: (await stat(onnxPath)).size });
}
