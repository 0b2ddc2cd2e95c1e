import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_MODEL_SPEC } from '../../../shared/config/service-config.js';
import type { ServiceRuntime } from '../../../shared/runtime/service-runtime.js';
import { startLocalAwsStack, type LocalAwsStack } from '../../../scripts/emulators/local-aws-stack.js';
import { runChaosLanes, type ChaosOptions, type ChaosReport } from '../../../scripts/measure/reliability/chaos-lanes.js';
import { formatChaosSummary } from '../../../scripts/measure/reliability/chaos-summary.js';
import { HANG_CEILING_MS } from '../../../scripts/support/wait-for-progress.js';

/**
 * Fault injection on the async path against DynamoDB Local + moto: the real SDK clients of the job store and
 * the chunk queue throw throttling errors, cancel transactions, lose responses, drop deletes and send twice;
 * workers crash before and after their write, chunks arrive twice, and some jobs carry a chunk that always
 * throws. Invariant, for every accepted job: succeeded with exactly the synchronous result, or (poisoned jobs,
 * and only they) failed with a reason; none lost, none still running.
 */
let stack: LocalAwsStack;
let runtime: ServiceRuntime;

const JOBS = 20;
const base: Omit<ChaosOptions, 'seed' | 'sdk' | 'sdkPlacement' | 'sdkMaxAttempts'> = {
  lane: 'jobs',
  jobs: { jobs: JOBS, documents: [10, 40], batchSizes: [5, 10, 20], poisonEvery: 5 },
  // The shared harness's worker crashes around each task (chaos-run.ts): a chunk dies before it ran or after it was
  // recorded (and its job maybe finished) but before the delete, and so does a finish (merge).
  crashes: {
    planBefore: 0,
    planAfter: 0,
    chunkBefore: 0.1,
    chunkAfter: 0.1,
    finishBefore: 0.1,
    finishAfter: 0.1,
    finalizeBefore: 0,
    finalizeAfter: 0,
    redeliver: 0.05,
  },
  faultyReceives: 2,
  pollers: 3,
  pollerConcurrency: 2,
  maxReceiveCount: 8,
  visibilityTimeoutSeconds: 2,
  // Slow is not lost: the settle waits while anything moves, and gives up after 30 s of nothing.
  stallTimeoutMs: 30_000,
};

function assertInvariant(chaos: ChaosReport, jobs: number): void {
  console.log(formatChaosSummary(chaos));
  expect(chaos.violations).toEqual([]);
  const report = chaos.jobs as NonNullable<ChaosReport['jobs']>;
  const accepted = report.verdicts.length;
  expect(accepted + report.submitErrors.length).toBe(jobs);
  for (const verdict of report.verdicts) {
    if (verdict.poisonedChunk === undefined) expect(verdict.end, verdict.id).toBe('succeeded');
    else {
      expect(verdict.end, verdict.id).toBe('failed');
      expect(verdict.error, verdict.id).toMatch(new RegExp(`^chunk ${verdict.poisonedChunk} could not be scored`));
    }
  }
  // The run must actually have been hostile, and must have covered poisoned and healthy jobs.
  expect(chaos.faults.total()).toBeGreaterThan(jobs);
  expect(chaos.faults.entries().some(([k, n]) => k.startsWith('crash: job chunk') && n > 0)).toBe(true);
  expect(report.verdicts.some((v) => v.poisonedChunk !== undefined)).toBe(true);
  expect(report.verdicts.some((v) => v.end === 'succeeded')).toBe(true);
}

beforeAll(async () => {
  stack = await startLocalAwsStack();
  Object.assign(process.env, stack.env, { RERANK_MODELS: FIXTURE_MODEL_SPEC });
  // Imported after the environment points at the emulators: the runtime reads configuration once.
  const { serviceRuntime } = await import('../../../shared/runtime/process-runtime.js');
  runtime = await serviceRuntime();
});

afterAll(async () => {
  await runtime?.scorers.closeAll();
  await stack?.stop();
});

describe('async jobs under injected faults (DynamoDB Local + moto)', () => {
  it(
    'faults below the SDK retry (default maxAttempts): every job ends succeeded = synchronous, or poisoned and failed',
    async () => {
      const report = await runChaosLanes(stack, runtime, {
        ...base,
        seed: 7,
        sdk: { throttle: 0.1, transactionConflict: 0.15, lostResponse: 0.03, dropDelete: 0.1, duplicateSend: 0.1 },
        sdkPlacement: 'inside-retry',
      });
      assertInvariant(report, JOBS);
    },
    HANG_CEILING_MS,
  );

  it(
    'faults above the SDK retry with maxAttempts 1: the application absorbs them itself',
    async () => {
      const report = await runChaosLanes(stack, runtime, {
        ...base,
        seed: 11,
        sdk: { throttle: 0.02, transactionConflict: 0.15, lostResponse: 0.01, dropDelete: 0.1, duplicateSend: 0.1 },
        sdkPlacement: 'outside-retry',
        sdkMaxAttempts: 1,
      });
      assertInvariant(report, JOBS);
    },
    HANG_CEILING_MS,
  );
});
