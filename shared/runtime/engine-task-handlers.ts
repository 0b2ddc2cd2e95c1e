import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import type { BatchEngine } from '../batches/batch-engine.js';
import type { BatchTask } from '../batches/batch-model.js';
import { deadLetterTask, runTask, type DeadLetterRunner, type EngineLanes } from '../engine/run-task.js';
import type { ScorerRegistry } from '../core/scorer-registry.js';
import type { JobCoordinator } from '../jobs/job-coordinator.js';
import { logger } from '../observability/logger.js';

/** Who runs a task: the jobs' coordinator (with the scorers) and the batch engine, built when first needed. */
export interface EngineOwners {
  /** Absent where only batches run (a job's task then fails, and dead-letters, saying so). */
  readonly jobs?: () => Promise<{ readonly scorers: ScorerRegistry; readonly jobs: JobCoordinator }>;
  /** The coordinator that ends dead-lettered jobs (on AWS one that loads no model). Absent = `jobs`'. */
  readonly deadLetterJobs?: () => Promise<JobCoordinator>;
  readonly batches: () => Promise<BatchEngine>;
}

function jobsOf(owners: Pick<EngineOwners, 'jobs'>): Promise<{ readonly scorers: ScorerRegistry; readonly jobs: JobCoordinator }> {
  if (!owners.jobs) throw new Error('a job task reached a consumer that runs batches only');
  return owners.jobs();
}

/** The engine's worker routine (runTask) over these owners: one task message of either lane, run by its lane. */
export function runEngineTaskWith(body: string, owners: EngineOwners, messageId?: string): Promise<void> {
  return runTask(body, lanesOf(owners), messageId);
}

/** The lanes of these owners: a job's tasks on the job lane with this process's scorers, a batch's on the batch engine. */
function lanesOf(owners: EngineOwners): EngineLanes {
  return {
    jobs: async () => {
      const { scorers, jobs } = await jobsOf(owners);
      return jobs.laneWith((modelId) => scorers.get(modelId));
    },
    batches: owners.batches,
  };
}

/** Who ends dead-lettered work: the jobs' owners, and what ends a batch's (the engine, or a slice of it that loads no model). */
export type DeadLetterOwners = Pick<EngineOwners, 'jobs' | 'deadLetterJobs'> & {
  readonly batches: () => Promise<DeadLetterRunner<BatchTask>>;
};

/** The engine's dead-letter path (deadLetterTask) over these owners; a job ends on a coordinator that loads no model. */
export function deadLetterEngineTaskWith(body: string, messageId: string, owners: DeadLetterOwners): Promise<void> {
  return deadLetterTask(body, messageId, {
    jobs: async () => (owners.deadLetterJobs ? await owners.deadLetterJobs() : (await jobsOf(owners)).jobs).lane,
    batches: owners.batches,
  });
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
