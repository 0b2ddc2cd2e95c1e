import middy from '@middy/core';
import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { logger } from '../../shared/observability/logger.js';
import { metrics } from '../../shared/observability/metrics.js';
import { deadLetterEngineTask } from '../../shared/runtime/engine-dead-letter.js';
import { tracingMiddleware } from '../../shared/observability/tracer.js';
import { publishRecordedMetrics } from '../../shared/observability/publish-recorded-metrics.js';

/**
 * Consumes a dead-letter queue with the engine's one dead-letter recovery (engine/run-task.ts: a job failed or finished,
 * a batch line, or a batch, ended); a record that failed is reported for redelivery (ReportBatchItemFailures).
 */
async function endDeadLetteredWork(event: SQSEvent, context: Context): Promise<SQSBatchResponse> {
  // One processor per invocation: it holds the batch's failures, and local runs invoke concurrently.
  const processor = new BatchProcessor(EventType.SQS);
  return processPartialResponse(event, (record: SQSRecord) => deadLetterEngineTask(record.body, record.messageId), processor, {
    context,
    // Each record is reported back on its own: one unreadable record must not send the whole invocation back.
    throwOnFullBatchFailure: false,
  });
}

// The finish a recorded chunk may trigger records the job's metrics; they are flushed when recorded.
export const handler = middy(endDeadLetteredWork)
  .use(tracingMiddleware)
  .use(injectLambdaContext(logger))
  .use(publishRecordedMetrics(metrics));
