import { serviceRuntime } from './process-runtime.js';
import { workerBatchEngine } from './worker-batch-engine.js';

/** What one scheduled run settled: batches past their window ended, and due derived-object keys of gone files. */
export interface SweepRun {
  readonly expired: number;
  readonly filesSwept: number;
}

/**
 * The schedule's run on AWS (EventBridge, every 5 minutes): batches past their completion window end `expired`, and the
 * derived objects of expired or deleted files go. Both sweeps are idempotent: a run that fails part way is done again by
 * the schedule's retry or its next run.
 */
export async function runScheduledSweeps(): Promise<SweepRun> {
  const expired = await (await workerBatchEngine()).expireDue();
  const filesSwept = (await (await serviceRuntime()).files?.deleteExpired?.()) ?? 0;
  return { expired, filesSwept };
}
