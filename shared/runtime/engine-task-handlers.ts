import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import type { BatchEngine } from '../batches/batch-engine.js';
import { isJobTask } from '../engine/engine-task.js';
import { decodeTask, readDeadLetteredTask } from '../engine/task-codec.js';
import type { ScorerRegistry } from '../core/scorer-registry.js';
import type { JobCoordinator } from '../jobs/job-coordinator.js';
import { runJobTask } from '../jobs/score-chunk-task.js';
import { logger } from '../observability/logger.js';

/** Who runs a task: the jobs' coordinator (with the scorers) and the batch engine, built when first needed. */
export interface EngineOwners {
  /** Absent where only batches run (a job's task then fails, and dead-letters, saying so). */
  readonly jobs?: () => Promise<{ readonly scorers: ScorerRegistry; readonly jobs: JobCoordinator }>;
  /** The coordinator that ends dead-lettered jobs (on AWS one that loads no model). Absent = `jobs`'. */
  readonly deadLetterJobs?: () => Promise<JobCoordinator>;
  readonly batches: () => Promise<BatchEngine>;
}

function jobsOf(owners: EngineOwners): Promise<{ readonly scorers: ScorerRegistry; readonly jobs: JobCoordinator }> {
  if (!owners.jobs) throw new Error('a job task reached a consumer that runs batches only');
  return owners.jobs();
}

const DEAD_LETTER_REASON = 'the task failed on every delivery and was moved to the dead-letter queue';

/**
 * The async engine's worker routine: one task message from either lane, run by what owns it (a job's chunk or
 * merge by the JobCoordinator, a batch's plan, chunk or finalize by the batch engine). A throw reports the message as
 * failed, so the queue redelivers it. `messageId` is the queue message's (stable across its redeliveries).
 */
export async function runEngineTaskWith(body: string, owners: EngineOwners, messageId?: string): Promise<void> {
  const task = decodeTask(body);
  if (isJobTask(task)) return runJobTask(task, await jobsOf(owners));
  return (await owners.batches()).handle(task, messageId);
}

/**
 * The async engine's dead-letter path: a task that failed on every delivery ends its work failed with a reason - a
 * job (or finishes it, if its chunk was recorded after all), a batch line or a batch - so accepted work is never lost.
 * An unreadable message is dropped (it never becomes readable).
 */
export async function deadLetterEngineTaskWith(body: string, messageId: string, owners: EngineOwners): Promise<void> {
  const dead = readDeadLetteredTask(body);
  if (!dead) {
    logger.error('unreadable dead-lettered task dropped', { messageId });
    return;
  }
  if (dead.of === 'batch') return (await owners.batches()).taskDeadLettered(dead.task, DEAD_LETTER_REASON);
  try {
    const jobs = owners.deadLetterJobs ? await owners.deadLetterJobs() : (await jobsOf(owners)).jobs;
    await jobs.chunkDeadLettered(dead.jobId, dead.chunkIndex, dead.reason);
  } catch (error) {
    logger.error('could not mark job failed', { jobId: dead.jobId, error: error as Error });
    throw error;
  }
}

/** Runs each record alone and reports the ones that threw (ReportBatchItemFailures), as the Lambda functions do. */
export function perRecord(run: (record: SQSRecord) => Promise<void>): (event: SQSEvent) => Promise<SQSBatchResponse> {
  return async (event) => {
    const batchItemFailures: { itemIdentifier: string }[] = [];
    for (const record of event.Records) {
      try {
        await run(record);
      } catch (error) {
        logger.warn('task failed; it will be delivered again', { messageId: record.messageId, error: error as Error });
        batchItemFailures.push({ itemIdentifier: record.messageId });
      }
    }
    return { batchItemFailures };
  };
}

/** The engine's routine and dead-letter path as queue consumers: what an in-process lane is attached to. */
export function engineTaskHandlers(owners: EngineOwners): {
  worker: (event: SQSEvent) => Promise<SQSBatchResponse>;
  deadLetter: (event: SQSEvent) => Promise<SQSBatchResponse>;
} {
  return {
    worker: perRecord((record) => runEngineTaskWith(record.body, owners, record.messageId)),
    deadLetter: perRecord((record) => deadLetterEngineTaskWith(record.body, record.messageId, owners)),
  };
}
