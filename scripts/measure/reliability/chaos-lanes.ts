import type { LocalAwsStack } from '../../emulators/local-aws-stack.js';
import type { ServiceRuntime } from '../../../shared/runtime/service-runtime.js';
import { NO_SDK_FAULTS } from './sdk-fault-injector.js';
import type { BatchesWork } from './chaos-batch-lines.js';
import { batchesLane, type BatchesLaneResult } from './chaos-batches-lane.js';
import { batchesVerdicts, storedBytesLimit, type BatchesLaneReport } from './chaos-batches-verdicts.js';
import { jobsLane, type JobsLaneReport, type JobsWork } from './chaos-jobs-lane.js';
import { NO_TASK_CRASHES, runChaos, type ChaosFaultOptions, type ChaosLaneRun } from './chaos-run.js';
import type { FaultCounts } from './fault-counts.js';

export type ChaosLane = 'jobs' | 'batches' | 'both';

export interface ChaosOptions extends ChaosFaultOptions {
  readonly lane: ChaosLane;
  /** Required when the lane is jobs or both. */
  readonly jobs?: JobsWork;
  /** Required when the lane is batches or both. */
  readonly batches?: BatchesWork;
}

export interface ChaosReport {
  readonly lane: ChaosLane;
  readonly options: ChaosOptions;
  readonly jobs: JobsLaneReport | undefined;
  readonly batches: BatchesLaneReport | undefined;
  readonly faults: FaultCounts;
  readonly deliveries: number;
  /** First submit or create to the last job or batch ended; the fault-free reference run's (batches only). */
  readonly wallMs: number;
  readonly cleanWallMs: number | undefined;
  readonly violations: readonly string[];
}

const needs = <T>(value: T | undefined, what: string): T => {
  if (value === undefined) throw new Error(`a chaos run over ${what} needs its ${what} options`);
  return value;
};

/** A fault-free run of the batches alone: the reference every completed line must equal, and the stored bytes it needs. */
async function cleanBatches(stack: LocalAwsStack, options: ChaosOptions, work: BatchesWork) {
  const clean = { ...options, sdk: NO_SDK_FAULTS, crashes: NO_TASK_CRASHES, sdkPlacement: undefined, sdkMaxAttempts: undefined };
  let result: (() => Promise<BatchesLaneResult>) | undefined;
  const run = await runChaos(stack, clean, `clean-batches-${options.seed}`, async (env) => {
    const lane = batchesLane(env, work, { owner: `clean-${options.seed}`, storedBytes: Number.MAX_SAFE_INTEGER, expiry: false });
    result = lane.result;
    return [lane.lane];
  });
  const lanes = await (result as () => Promise<BatchesLaneResult>)();
  return { run, lanes };
}

/**
 * One chaos harness over both lanes of the async engine on DynamoDB Local + moto: `jobs` (JobCoordinator's jobs,
 * checked against the synchronous answer), `batches` (the batch engine's batches, checked against a fault-free run) or
 * `both` at once on one task queue, as the one worker routine serves them on AWS. The SDK faults, worker crashes,
 * second deliveries, poison tasks and dead-letter path are the same for both (chaos-run.ts). Batches may end early
 * (BatchesWork.ending: by their key's quota, or by expiry while running; chaos-batch-endings.ts). `runtime` scores the
 * jobs' synchronous references (built on clean clients against the same stack); unused for batches alone.
 */
export async function runChaosLanes(
  stack: LocalAwsStack,
  runtime: ServiceRuntime | undefined,
  options: ChaosOptions,
): Promise<ChaosReport> {
  const withJobs = options.lane !== 'batches';
  const withBatches = options.lane !== 'jobs';
  const batchWork = withBatches ? needs(options.batches, 'batches') : undefined;
  const clean = batchWork && (await cleanBatches(stack, options, batchWork));
  let jobsReport: ((stalled: string | undefined) => Promise<JobsLaneReport>) | undefined;
  let batchesResult: (() => Promise<BatchesLaneResult>) | undefined;
  const run = await runChaos(stack, options, `${options.lane}-${options.seed}`, async (env) => {
    const lanes: ChaosLaneRun[] = [];
    if (withJobs) {
      const jobs = jobsLane(env, needs(runtime, 'a service runtime'), needs(options.jobs, 'jobs'), options.seed);
      jobsReport = jobs.report;
      lanes.push(jobs.lane);
    }
    if (batchWork && clean) {
      const storedBytes = storedBytesLimit(clean.lanes, batchWork.ending);
      const batches = batchesLane(env, batchWork, { owner: `chaos-${options.seed}`, storedBytes, expiry: batchWork.ending === 'expiry' });
      batchesResult = batches.result;
      lanes.push(batches.lane);
    }
    return lanes;
  });
  const jobs = jobsReport && (await jobsReport(run.stalled));
  const batches = batchesResult && clean && batchWork && batchesVerdicts(clean.lanes, await batchesResult(), batchWork);
  const violations = [
    ...(clean?.run.stalled ? [`fault-free run: ${clean.run.stalled}`] : []),
    ...(run.stalled ? [`chaos run: ${run.stalled}`] : []),
    ...(jobs?.violations ?? []),
    ...(batches?.violations ?? []),
  ];
  return {
    lane: options.lane,
    options,
    jobs,
    batches,
    faults: run.faults,
    deliveries: run.deliveries,
    wallMs: run.wallMs,
    cleanWallMs: clean?.run.wallMs,
    violations,
  };
}
