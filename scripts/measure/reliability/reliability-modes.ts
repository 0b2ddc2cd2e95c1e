import type { BatchesWork } from './chaos-batch-lines.js';
import type { JobsWork } from './chaos-jobs-lane.js';
import type { ChaosLane, ChaosOptions } from './chaos-lanes.js';
import type { TaskCrashRates } from './chaos-run.js';

/** Worker crashes of `npm run reliability`'s chaos runs, per task kind and delivery (on deliveries 1-2 only). */
export const RELIABILITY_CRASHES: TaskCrashRates = {
  planBefore: 0.3,
  planAfter: 0.3,
  chunkBefore: 0.1,
  chunkAfter: 0.1,
  finishBefore: 0.1,
  finishAfter: 0.1,
  finalizeBefore: 0.3,
  finalizeAfter: 0.3,
  redeliver: 0.1,
};

/** The two fault modes: below the SDK's retry (it sees them first), and above it with maxAttempts 1 (the engine absorbs all). */
export function reliabilityModes(
  lane: ChaosLane,
  quick: boolean,
  onProgress: (progress: string) => void,
): { title: string; options: ChaosOptions }[] {
  const jobs: JobsWork = { jobs: quick ? 40 : 200, documents: [10, 60], batchSizes: [5, 10, 20], poisonEvery: 6 };
  const batches: BatchesWork = quick
    ? { batches: 3, linesPerBatch: 8, poisonedBatches: 1 }
    : { batches: 6, linesPerBatch: 20, poisonedBatches: 2 };
  const common = {
    lane,
    ...(lane === 'batches' ? {} : { jobs }),
    ...(lane === 'jobs' ? {} : { batches }),
    crashes: RELIABILITY_CRASHES,
    faultyReceives: 2,
    pollers: 3,
    pollerConcurrency: 2,
    maxReceiveCount: 8,
    visibilityTimeoutSeconds: 3,
    stallTimeoutMs: 120_000,
    onProgress,
  } as const;
  const faultModes = [
    {
      title: 'faults below the SDK retry, SDK default maxAttempts (3)',
      options: {
        ...common,
        seed: 101,
        sdk: { throttle: 0.1, transactionConflict: 0.15, lostResponse: 0.03, dropDelete: 0.1, duplicateSend: 0.1 },
        sdkPlacement: 'inside-retry',
      },
    },
    {
      title: 'faults above the SDK retry, SDK maxAttempts 1 (the application handles every fault)',
      options: {
        ...common,
        seed: 202,
        sdk: { throttle: 0.02, transactionConflict: 0.15, lostResponse: 0.02, dropDelete: 0.1, duplicateSend: 0.1 },
        sdkPlacement: 'outside-retry',
        sdkMaxAttempts: 1,
      },
    },
  ] as const;
  if (lane === 'jobs') return [...faultModes];
  // Batches that end early, with lines in flight, in each fault mode: one receive at a time per loop and room for the
  // expiry case's held line of every batch (each holds its loop until the batch's end is claimed).
  const endings = (['quota', 'expiry'] as const).flatMap((ending, e) =>
    faultModes.map(({ title, options }, m) => ({
      title: `batches ending by ${ending === 'quota' ? 'their quota' : 'expiry'} while running; ${title}`,
      options: {
        ...options,
        seed: options.seed + 10 * (e + 1) + m,
        batches: { ...batches, ending },
        pollerConcurrency: Math.ceil((batches.batches + 4) / common.pollers),
        receiveBatchSize: 1,
      },
    })),
  );
  return [...faultModes, ...endings];
}

/** `--lane jobs|batches|both` (default both); anything else is refused. */
export function laneArgument(argv: readonly string[]): ChaosLane {
  const at = argv.indexOf('--lane');
  const value = at === -1 ? 'both' : argv[at + 1];
  if (value === 'jobs' || value === 'batches' || value === 'both') return value;
  throw new Error(`--lane takes jobs, batches or both (got ${value ?? 'nothing'})`);
}
