import middy from '@middy/core';
import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import type { Context, ScheduledEvent, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import type { BatchEngine } from '../../shared/batches/batch-engine.js';
import { decodeBatchTask } from '../../shared/batches/batch-task-codec.js';
import { workerBatchEngine } from '../../shared/runtime/worker-batch-engine.js';
import { logger } from '../../shared/observability/logger.js';
import { metrics } from '../../shared/observability/metrics.js';
import { publishRecordedMetrics } from '../../shared/observability/publish-recorded-metrics.js';
import { tracingMiddleware } from '../../shared/observability/tracer.js';

/** Set by the stack: records from this queue's ARN are dead-lettered tasks, every other SQS record a task to run. */
const DEAD_LETTER_ARN = process.env['RERANK_BATCH_DLQ_ARN'];

const isScheduled = (event: SQSEvent | ScheduledEvent): event is ScheduledEvent => 'source' in event && event.source === 'aws.events';

/** A task that failed on every delivery ends its line (or its batch) failed with a reason: accepted work is never lost. */
async function deadLettered(record: SQSRecord, engine: BatchEngine): Promise<void> {
  let task;
  try {
    task = decodeBatchTask(record.body);
  } catch {
    // Nothing to retry: an unreadable message never becomes readable.
    logger.error('unreadable dead-lettered batch task dropped', { messageId: record.messageId });
    return;
  }
  await engine.taskDeadLettered(task, 'the task failed on every delivery and was moved to the dead-letter queue');
}

/**
 * The batch engine on AWS, one function for its three inputs: plan / chunk / finalize tasks from the batch task
 * queue (failures reported item by item, so SQS redelivers only those), dead-lettered tasks from its DLQ, and the
 * schedule that expires batches past their completion window.
 */
async function runBatchWork(event: SQSEvent | ScheduledEvent, context: Context): Promise<SQSBatchResponse | { expired: number }> {
  const engine = await workerBatchEngine();
  if (isScheduled(event)) return { expired: await engine.expireDue() };
  // One processor per invocation: it holds the batch's failures.
  const processor = new BatchProcessor(EventType.SQS);
  return processPartialResponse(
    event,
    (record: SQSRecord) => (DEAD_LETTER_ARN !== undefined && record.eventSourceARN === DEAD_LETTER_ARN ? deadLettered(record, engine) : engine.handle(decodeBatchTask(record.body))),
    processor,
    { context, throwOnFullBatchFailure: false },
  );
}

export const handler = middy(runBatchWork).use(tracingMiddleware).use(injectLambdaContext(logger)).use(publishRecordedMetrics(metrics));
