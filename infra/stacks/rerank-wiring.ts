import { Duration, type Stack } from 'aws-cdk-lib';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { RerankSettings } from '../config/rerank-settings.js';
import type { BatchTaskQueues } from '../constructs/batch-task-queues.js';
import type { ChunkQueues } from '../constructs/chunk-queues.js';
import type { FilesBucket } from '../constructs/files-bucket.js';
import { TABLE_ACCESS, type JobsTable } from '../constructs/jobs-table.js';
import { acknowledge, NAG_ACKNOWLEDGEMENTS as ACK } from '../nag/acknowledge-nag-findings.js';
import { DEAD_LETTER_CONCURRENCY, type RerankFunctions } from './rerank-functions.js';

/** The stores and queues the functions are wired to. */
export interface RerankResources {
  readonly jobsTable: JobsTable;
  readonly chunkQueues: ChunkQueues;
  readonly files: FilesBucket;
  readonly batchTasks: BatchTaskQueues;
}

/** Each function's grants, on the resources it uses and no other. */
export function grantAccess(r: RerankResources, f: RerankFunctions): void {
  r.jobsTable.grantAccess(f.apiFunction.function, TABLE_ACCESS.api);
  r.jobsTable.grantAccess(f.workerFunction.function, TABLE_ACCESS.worker);
  r.jobsTable.grantAccess(f.deadLetterFunction.function, TABLE_ACCESS.deadLetter);
  r.chunkQueues.grantSendChunks(f.apiFunction.function);
  // The worker whose chunk completes a job's count queues the job's finish task on the same queue (found missing by
  // the IAM check of the emulator job flow: every job would have stopped at its merge on AWS).
  r.chunkQueues.grantSendChunks(f.workerFunction.function);
  // The API takes uploads, creates batches (one plan task each) and serves file content; the batch worker reads
  // inputs and corpora, writes output and error files, queues chunk and finalize tasks and sweeps derived objects.
  r.files.grantFiles(f.apiFunction.function, 'readWrite');
  r.files.grantFiles(f.batchWorkerFunction.function, 'readWrite');
  r.batchTasks.grantSendTasks(f.apiFunction.function);
  r.batchTasks.grantSendTasks(f.batchWorkerFunction.function);
  r.jobsTable.grantAccess(f.batchWorkerFunction.function, TABLE_ACCESS.batchWorker);
  // The batch DLQ's consumer ends a plan's batch, a chunk's lines (finished from their input line and recorded scores if
  // every chunk is in, else failed) or a finalize's batch, and queues the finalize of a batch whose last line that ended:
  // the batch worker's table access, the files read-only, sending batch tasks.
  r.jobsTable.grantAccess(f.batchDeadLetterFunction.function, TABLE_ACCESS.batchWorker);
  r.files.grantFiles(f.batchDeadLetterFunction.function, 'read');
  r.batchTasks.grantSendTasks(f.batchDeadLetterFunction.function);
}

/** The batch task queue's worker, its DLQ's consumer, and the schedule that expires batches and derived objects. */
export function attachBatchWorker(stack: Stack, s: RerankSettings, r: RerankResources, f: RerankFunctions): void {
  const batchWorker = f.batchWorkerFunction.function;
  batchWorker.addEventSource(
    new SqsEventSource(r.batchTasks.queue, { batchSize: 1, maxConcurrency: s.batchWorkerMaxConcurrency, reportBatchItemFailures: true }),
  );
  f.batchDeadLetterFunction.function.addEventSource(
    new SqsEventSource(r.batchTasks.deadLetterQueue, {
      batchSize: 10,
      maxConcurrency: DEAD_LETTER_CONCURRENCY,
      reportBatchItemFailures: true,
    }),
  );
  // Batches past their completion window end as expired, keeping what finished; derived objects of gone files go.
  const expirySchedule = new events.Rule(stack, 'BatchExpirySchedule', {
    description: 'Expires rerank batches past their completion window and the derived objects of expired or deleted files',
    schedule: events.Schedule.rate(Duration.minutes(5)),
    targets: [new targets.LambdaFunction(batchWorker, { retryAttempts: 2 })],
  });
  acknowledge(expirySchedule, ACK.scheduleNeedsNoDlq);
}

/** The chunk worker consumes through its alias, so a rollout shifts chunks to the new version as it shifts the API. */
export function attachChunkWorkers(s: RerankSettings, r: RerankResources, f: RerankFunctions, workerAlias: lambda.Alias): void {
  workerAlias.addEventSource(
    new SqsEventSource(r.chunkQueues.queue, {
      batchSize: s.workerBatchSize,
      maxBatchingWindow: Duration.seconds(s.workerBatchingWindowSeconds),
      maxConcurrency: s.workerMaxConcurrency,
      reportBatchItemFailures: true,
    }),
  );
  f.deadLetterFunction.function.addEventSource(
    new SqsEventSource(r.chunkQueues.deadLetterQueue, {
      batchSize: 10,
      maxConcurrency: DEAD_LETTER_CONCURRENCY,
      reportBatchItemFailures: true,
    }),
  );
}
