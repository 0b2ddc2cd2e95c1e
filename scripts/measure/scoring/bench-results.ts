/** Raw figures of one bench run, per thread count (bench/out/results.json; the report is written from these). */

export interface ThroughputRow {
  readonly threads: number;
  readonly model: string;
  readonly variant: string;
  /** The execution plan our scorer chose, e.g. "2 worker session(s) x 1 intra-op". */
  readonly plan: string;
  readonly documents: number;
  readonly meanTokens: number;
  readonly reps: number;
  /** Pairs/s, median over reps. */
  readonly ours: number;
  /** Ours before the plan: one in-thread session with N intra-op threads. */
  readonly oursOneSession: number;
  /** Python onnxruntime, N single-threaded sessions costliest first (the same plan as ours). */
  readonly pythonOrtSessions: number | undefined;
  /** Python onnxruntime, one session with N intra-op threads. */
  readonly pythonOrtOneSession: number | undefined;
  /** sentence-transformers CrossEncoder on PyTorch (fp32 only). */
  readonly crossEncoder: number | undefined;
  /** The same CrossEncoder loaded as bf16 (`torch_dtype=bfloat16`), measured only where the CPU has AMX / AVX-512 BF16. */
  readonly crossEncoderBf16?: number | undefined;
  readonly tokenizeShare: number;
  readonly pythonTokenizeShare: number | undefined;
  /** Largest |score(plan) - score(one session)| over the request: the plan must not change results. */
  readonly maxScoreDeviation: number;
  readonly meanScore: { ours: number; ort: number | undefined; st: number | undefined };
}

/** int8 vs fp32 rank agreement of one model on the throughput request (our plan's scores). */
export interface SpearmanRow {
  readonly model: string;
  readonly documents: number;
  /** The bench's own figure: the random-weight bench model. */
  readonly rho: number;
  readonly maxAbsDiffOverRange?: number;
  /** The same recipe on the model's spread copy (synthetic check, when built; see spread-copy-agreement.ts). */
  readonly spreadRho?: number;
  readonly spreadMaxAbsDiffOverRange?: number;
}

export interface LatencyRow {
  readonly threads: number;
  readonly model: string;
  readonly documents: number;
  readonly samples: number;
  readonly oursP50Ms: number;
  readonly oursP95Ms: number;
  readonly oneSessionP50Ms: number;
  readonly oneSessionP95Ms: number;
}

export interface OptionRow {
  readonly model: string;
  readonly config: string;
  readonly pairsPerSecond: number;
  readonly relative: number;
}

export interface QuantizationRow {
  readonly model: string;
  readonly variant: string;
  readonly description: string;
  readonly megabytes: number;
  readonly pairsPerSecond: number;
  readonly relativeToFp32: number;
  readonly spearmanVsFp32: number;
  readonly maxAbsDiffVsFp32: number;
  readonly maxAbsDiffOverRange?: number;
  /** Spearman vs fp32 of the same recipe on the model's spread copy (synthetic check), when built. */
  readonly spreadSpearmanVsFp32?: number;
}

export interface Extras {
  readonly threads: number;
  readonly padding: { model: string; strategy: string; pairsPerSecond: number; paddedTokens: number; speedupOfLengthAware: number }[];
  readonly sessionOptions: OptionRow[];
  readonly quantization: QuantizationRow[];
  readonly coldStart: { model: string; runs: number; importMs: number; loadMs: number; firstScoreMs: number }[];
  readonly concurrency: {
    setup: string;
    model: string;
    aloneP50Ms: number;
    smallRequests: number;
    smallP50Ms: number;
    smallP95Ms: number;
    largeRequests: number;
    eventLoopDelayP99Ms: number;
    eventLoopDelayMaxMs: number;
    pairsPerSecond: number;
  }[];
}

export interface ThreadRun {
  readonly threads: number;
  readonly quick: boolean;
  readonly versions: Record<string, string | null>;
  readonly notes: string[];
  readonly loadAverageStart: number[];
  loadAverageEnd: number[];
  /** The cores this run was pinned to (taskset -c), or null when not pinned. */
  pinnedCores?: string | null;
  readonly throughput: ThroughputRow[];
  readonly spearman: SpearmanRow[];
  readonly latency: LatencyRow[];
  extras?: Extras;
}

export interface BenchResults {
  readonly date: string;
  readonly quick: boolean;
  readonly machine: { cpus: string; memoryGb: number; node: string; onnxruntimeNode: string };
  readonly runs: ThreadRun[];
}
