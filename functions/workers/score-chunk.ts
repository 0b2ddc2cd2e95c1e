import middy from '@middy/core';
import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { decodeJobTask } from '../../shared/jobs/chunk-queue.js';
import { runJobTask } from '../../shared/jobs/score-chunk-task.js';
import { logger } from '../../shared/observability/logger.js';
import { metrics } from '../../shared/observability/metrics.js';
import { tracingMiddleware } from '../../shared/observability/tracer.js';
import { publishRecordedMetrics } from '../../shared/observability/publish-recorded-metrics.js';
import { serviceRuntime } from '../../shared/runtime/process-runtime.js';

/** SQS-triggered worker: scores chunks and merges jobs, reports failures item by item (ReportBatchItemFailures). */
async function scoreChunks(event: SQSEvent, context: Context): Promise<SQSBatchResponse> {
  // One processor per invocation: it holds the batch's failures, and local runs invoke concurrently.
  const processor = new BatchProcessor(EventType.SQS);
  const runtime = await serviceRuntime();
  return processPartialResponse(event, (record: SQSRecord) => runJobTask(decodeJobTask(record.body), runtime), processor, { context });
}

// The worker that runs a job's merge task records the job's metrics; they are flushed when recorded.
export const handler = middy(scoreChunks).use(tracingMiddleware).use(injectLambdaContext(logger)).use(publishRecordedMetrics(metrics));
