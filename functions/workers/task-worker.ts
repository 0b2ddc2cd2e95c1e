import middy from '@middy/core';
import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import type { Context, ScheduledEvent, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { logger } from '../../shared/observability/logger.js';
import { metrics } from '../../shared/observability/metrics.js';
import { publishRecordedMetrics } from '../../shared/observability/publish-recorded-metrics.js';
import { tracingMiddleware } from '../../shared/observability/tracer.js';
import { runEngineTask } from '../../shared/runtime/engine-task-worker.js';
import { runScheduledSweeps, type SweepRun } from '../../shared/runtime/scheduled-sweeps.js';

const isScheduled = (event: SQSEvent | ScheduledEvent): event is ScheduledEvent => 'source' in event && event.source === 'aws.events';

/**
 * The async engine's one worker: each record of a task queue is decoded and run by the engine (engine/run-task.ts routes
 * it to the lane that owns it: a job's chunk or finish, a batch's plan, chunk or finalize), failures reported item by item
 * (ReportBatchItemFailures) so SQS redelivers only those. The schedule's event runs the expiry sweeps instead.
 */
async function runTasks(event: SQSEvent | ScheduledEvent, context: Context): Promise<SQSBatchResponse | SweepRun> {
  if (isScheduled(event)) return runScheduledSweeps();
  // One processor per invocation: it holds the batch's failures, and local runs invoke concurrently.
  const processor = new BatchProcessor(EventType.SQS);
  // An invocation whose every record failed throws (Powertools' default): the function's Errors alarm, and the worker
  // alias' canary rollback, see a version that fails all its work.
  return processPartialResponse(event, (record: SQSRecord) => runEngineTask(record.body, record.messageId), processor, { context });
}

// A task that finishes a job records the job's metrics; they are flushed when recorded.
export const handler = middy(runTasks).use(tracingMiddleware).use(injectLambdaContext(logger)).use(publishRecordedMetrics(metrics));
