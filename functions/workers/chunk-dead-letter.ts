import middy from '@middy/core';
import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { deadLetteredChunk } from '../../shared/jobs/dead-lettered-chunk.js';
import type { JobCoordinator } from '../../shared/jobs/job-coordinator.js';
import { logger } from '../../shared/observability/logger.js';
import { metrics } from '../../shared/observability/metrics.js';
import { deadLetterJobs } from '../../shared/runtime/dead-letter-runtime.js';
import { tracingMiddleware } from '../../shared/observability/tracer.js';
import { publishRecordedMetrics } from '../../shared/observability/publish-recorded-metrics.js';

/** One dead-lettered chunk: its job ends failed with a reason (or finishes, if the chunk was recorded after all). */
async function failDeadLetteredJob(record: SQSRecord, jobs: JobCoordinator): Promise<void> {
  const failure = deadLetteredChunk(record.body);
  if (!failure) {
    // Nothing to retry: an unreadable message never becomes readable.
    logger.error('unreadable dead-lettered chunk dropped', { messageId: record.messageId });
    return;
  }
  try {
    await jobs.chunkDeadLettered(failure.jobId, failure.chunkIndex, failure.reason);
  } catch (error) {
    logger.error('could not mark job failed', { jobId: failure.jobId, error: error as Error });
    throw error;
  }
}

/** Consumes the chunk dead-letter queue; a record that failed is reported for redelivery (ReportBatchItemFailures). */
async function failDeadLetteredJobs(event: SQSEvent, context: Context): Promise<SQSBatchResponse> {
  // One processor per invocation: it holds the batch's failures, and local runs invoke concurrently.
  const processor = new BatchProcessor(EventType.SQS);
  const jobs = await deadLetterJobs();
  return processPartialResponse(event, (record: SQSRecord) => failDeadLetteredJob(record, jobs), processor, {
    context,
    // As before: every record reported back rather than the whole invocation failing.
    throwOnFullBatchFailure: false,
  });
}

// The merge a recorded chunk may trigger records the job's metrics; they are flushed when recorded.
export const handler = middy(failDeadLetteredJobs).use(tracingMiddleware).use(injectLambdaContext(logger)).use(publishRecordedMetrics(metrics));
