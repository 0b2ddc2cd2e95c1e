import middy from '@middy/core';
import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { logger } from '../../shared/observability/logger.js';
import { metrics } from '../../shared/observability/metrics.js';
import { tracingMiddleware } from '../../shared/observability/tracer.js';
import { publishRecordedMetrics } from '../../shared/observability/publish-recorded-metrics.js';
import { runEngineTask } from '../../shared/runtime/engine-task-worker.js';

/**
 * SQS-triggered worker of the chunk queue (60 s): runs the engine's one worker routine on each record - jobs' chunks
 * and merges - and reports failures item by item (ReportBatchItemFailures).
 */
async function scoreChunks(event: SQSEvent, context: Context): Promise<SQSBatchResponse> {
  // One processor per invocation: it holds the batch's failures, and local runs invoke concurrently.
  const processor = new BatchProcessor(EventType.SQS);
  return processPartialResponse(event, (record: SQSRecord) => runEngineTask(record.body, record.messageId), processor, { context });
}

// The worker that runs a job's merge task records the job's metrics; they are flushed when recorded.
export const handler = middy(scoreChunks).use(tracingMiddleware).use(injectLambdaContext(logger)).use(publishRecordedMetrics(metrics));
