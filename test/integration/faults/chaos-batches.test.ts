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

describe('batches under injected faults (DynamoDB Local + moto)', () => {
  it(
    '0 lost or duplicated lines, every batch ends, completed lines equal the fault-free run, quotas never passed',
    async () => {
      const chaos = await runChaosLanes(stack, undefined, {
        lane: 'batches',
        seed: 5,
        batches: { batches: 3, linesPerBatch: 8, poisonedBatches: 1 },
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
        pollerConcurrency: 2,
        maxReceiveCount: 4,
        visibilityTimeoutSeconds: 2,
        // Slow is not lost: the wait gives up only after 30 s in which nothing moved.
        stallTimeoutMs: 30_000,
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
});
