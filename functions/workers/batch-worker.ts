import middy from '@middy/core';
import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import type { Context, ScheduledEvent, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { deadLetterEngineTask } from '../../shared/runtime/engine-dead-letter.js';
import { runEngineTask } from '../../shared/runtime/engine-task-worker.js';
import { serviceRuntime } from '../../shared/runtime/process-runtime.js';
import { workerBatchEngine } from '../../shared/runtime/worker-batch-engine.js';
import { logger } from '../../shared/observability/logger.js';
import { metrics } from '../../shared/observability/metrics.js';
import { publishRecordedMetrics } from '../../shared/observability/publish-recorded-metrics.js';
import { tracingMiddleware } from '../../shared/observability/tracer.js';

/** Set by the stack: records from this queue's ARN are dead-lettered tasks, every other SQS record a task to run. */
const DEAD_LETTER_ARN = process.env['RERANK_BATCH_DLQ_ARN'];

const isScheduled = (event: SQSEvent | ScheduledEvent): event is ScheduledEvent => 'source' in event && event.source === 'aws.events';

/** What one scheduled run settled: batches past their window ended, and due derived-object keys of gone files. */
interface ExpiryRun {
  readonly expired: number;
  readonly filesSwept: number;
}

/** Both sweeps are idempotent: a run that fails part way is done again by the schedule's retry or its next run. */
async function runExpiry(): Promise<ExpiryRun> {
  const expired = await (await workerBatchEngine()).expireDue();
  const filesSwept = (await (await serviceRuntime()).files?.deleteExpired?.()) ?? 0;
  return { expired, filesSwept };
}

/**
 * The batch engine on AWS, one function for its three inputs: plan / chunk / finalize tasks from the batch task
 * queue (failures reported item by item, so SQS redelivers only those), dead-lettered tasks from its DLQ, and the
 * schedule that expires batches past their completion window and the derived objects of expired or deleted files.
 */
async function runBatchWork(event: SQSEvent | ScheduledEvent, context: Context): Promise<SQSBatchResponse | ExpiryRun> {
  if (isScheduled(event)) return runExpiry();
  // One processor per invocation: it holds the batch's failures.
  const processor = new BatchProcessor(EventType.SQS);
  return processPartialResponse(
    event,
    // The engine's one worker routine and one dead-letter path, as the chunk functions run them.
    (record: SQSRecord) =>
      DEAD_LETTER_ARN !== undefined && record.eventSourceARN === DEAD_LETTER_ARN
        ? deadLetterEngineTask(record.body, record.messageId)
        : runEngineTask(record.body, record.messageId),
    processor,
    { context, throwOnFullBatchFailure: false },
  );
}

export const handler = middy(runBatchWork).use(tracingMiddleware).use(injectLambdaContext(logger)).use(publishRecordedMetrics(metrics));
