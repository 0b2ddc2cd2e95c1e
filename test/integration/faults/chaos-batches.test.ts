import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalAwsStack, type LocalAwsStack } from '../../../scripts/emulators/local-aws-stack.js';
import { runChaosLanes } from '../../../scripts/measure/reliability/chaos-lanes.js';
import { formatChaosSummary } from '../../../scripts/measure/reliability/chaos-summary.js';
import { HANG_CEILING_MS } from '../../../scripts/support/wait-for-progress.js';

/**
 * Batches under injected faults against DynamoDB Local + moto (the short form of `npm run reliability`'s batch
 * section): the real DynamoDB, SQS and S3 clients of the batch store, task queue, quota ledger and file store throw
 * throttling errors, cancel transactions, lose responses, drop deletes and send twice; the worker dies before and after
 * plan, chunk and finalize tasks, tasks arrive twice, and a poison line fails on every delivery. Invariant: every
 * batch ends completed, every line is in the output or error file exactly once, completed lines equal the fault-free
 * run's, and the key's quota ledger never passes its limits and ends holding exactly its files.
 */
let stack: LocalAwsStack;

beforeAll(async () => {
  stack = await startLocalAwsStack();
});

afterAll(async () => {
  await stack?.stop();
});

const faults = {
  sdk: { throttle: 0.05, transactionConflict: 0.1, lostResponse: 0.03, dropDelete: 0.1, duplicateSend: 0.1 },
  crashes: {
    planBefore: 0.5,
    planAfter: 0.5,
    chunkBefore: 0.1,
    chunkAfter: 0.1,
    finalizeBefore: 0.5,
    finalizeAfter: 0.5,
    redeliver: 0.1,
  },
  faultyReceives: 2,
  pollers: 2,
  maxReceiveCount: 4,
  visibilityTimeoutSeconds: 2,
  // Slow is not lost: the wait gives up only after 30 s in which nothing moved.
  stallTimeoutMs: 30_000,
} as const;

/**
 * Where the SDK faults sit: below the SDK's retry (it absorbs most), or above it with maxAttempts 1, where the engine
 * itself must handle every throttled, lost or doubled call (the mode that found a failed finalize attempt's orphan file).
 */
const FAULT_MODES = [
  { mode: 'below the SDK retry', seed: 5, placement: {} },
  // With no SDK retry every faulted call fails its task, so this mode takes `npm run reliability`'s rates for it (a
  // finalize makes tens of calls: at 5% throttling per call most of its runs would fail) and its 8 deliveries.
  {
    mode: 'above the SDK retry (maxAttempts 1)',
    seed: 8,
    placement: {
      sdk: { throttle: 0.02, transactionConflict: 0.15, lostResponse: 0.02, dropDelete: 0.1, duplicateSend: 0.1 },
      sdkPlacement: 'outside-retry',
      sdkMaxAttempts: 1,
      maxReceiveCount: 8,
    },
  },
] as const;

describe('batches under injected faults (DynamoDB Local + moto)', () => {
  it.each(FAULT_MODES)(
    'faults $mode: 0 lost or duplicated lines, every batch ends, completed lines equal the fault-free run, quotas never passed',
    async ({ seed, placement }) => {
      const chaos = await runChaosLanes(stack, undefined, {
        ...faults,
        ...placement,
        lane: 'batches',
        seed,
        batches: { batches: 3, linesPerBatch: 8, poisonedBatches: 1 },
        pollerConcurrency: 2,
      });
      console.log(formatChaosSummary(chaos));
      expect(chaos.violations).toEqual([]);
      const report = { ...(chaos.batches as NonNullable<typeof chaos.batches>), faults: chaos.faults };
      expect(report.verdicts.map((v) => v.status)).toEqual(['completed', 'completed', 'completed']);
      expect(report.verdicts.reduce((a, v) => a + v.lost + v.duplicated, 0)).toBe(0);
      expect(report.quotaAfter.running_batches).toBe(0);
      expect(report.quotaAfter.stored_bytes).toBe(report.filesAfter.bytes);
      // The run must actually have been hostile: chunk crashes, and crashes in the planner or finalizer (a handful of
      // those tasks, so each alone may draw none; which draws land where depends on delivery order).
      const crashes = (kind: string) =>
        report.faults
          .entries()
          .filter(([k]) => k.startsWith(`crash: batch ${kind}`))
          .reduce((a, [, n]) => a + n, 0);
      expect(crashes('chunk')).toBeGreaterThan(0);
      expect(crashes('plan') + crashes('finalize')).toBeGreaterThan(0);
      expect(report.faults.entries().some(([k, n]) => k.startsWith('dynamodb: response lost') && n > 0)).toBe(true);
      expect(report.faults.get('dead-letter: task moved to the DLQ')).toBeGreaterThan(0);
    },
    HANG_CEILING_MS,
  );

  /**
   * A batch whose end is claimed while its other lines are still in flight - past its key's stored-bytes quota, or past
   * its completion window - is finalized by the transition that ended it, not by every task that ends after it: each
   * batch has one output file (the one it names), every custom_id once in its output or error file.
   */
  it.each([
    { ending: 'quota', seed: 6, status: 'failed', unfinished: 'batch_failed' },
    { ending: 'expiry', seed: 7, status: 'expired', unfinished: 'batch_expired' },
  ] as const)(
    'ending by $ending while running: 0 lost or duplicated lines, one output file per batch, never two writers',
    async ({ ending, seed, status, unfinished }) => {
      const chaos = await runChaosLanes(stack, undefined, {
        ...faults,
        lane: 'batches',
        seed,
        batches: { batches: 3, linesPerBatch: 8, poisonedBatches: 1, ending },
        // Room for the held line of every batch (expiry), one receive at a time per loop.
        pollerConcurrency: 4,
        receiveBatchSize: 1,
      });
      console.log(formatChaosSummary(chaos));
      expect(chaos.violations).toEqual([]);
      const report = chaos.batches as NonNullable<typeof chaos.batches>;
      expect(report.verdicts.map((v) => v.status)).toEqual([status, status, status]);
      expect(report.verdicts.reduce((a, v) => a + v.lost + v.duplicated, 0)).toBe(0);
      for (const v of report.verdicts) expect(v.outputFiles).toBe(v.completed > 0 ? 1 : 0);
      expect(report.writes.maxConcurrent).toBe(1);
      // The batches ended early: lines they did not run are in their error files under the ending's code.
      const notRun = report.batches.flatMap((b) => b.errors).filter((l) => (l.error as { code?: string }).code === unfinished);
      expect(notRun.length).toBeGreaterThan(0);
      if (ending === 'expiry') expect(chaos.faults.get('expiry: held lines let go after every batch was claimed for its end')).toBe(1);
    },
    HANG_CEILING_MS,
  );
});
