import middy from '@middy/core';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { deadLetterFailure } from '../../shared/jobs/dead-letter-reason.js';
import { logger } from '../../shared/observability/logger.js';
import { tracingMiddleware } from '../../shared/observability/tracer.js';
import { serviceRuntime } from '../../shared/runtime/service-runtime.js';

/** Consumes the chunk dead-letter queue: the chunk's job ends failed with a reason, never stuck running. */
async function failDeadLetteredJobs(event: SQSEvent): Promise<SQSBatchResponse> {
  const runtime = await serviceRuntime();
  const batchItemFailures: SQSBatchResponse['batchItemFailures'] = [];
  for (const record of event.Records) {
    const failure = deadLetterFailure(record);
    if (!failure) {
      logger.error('unreadable dead-lettered chunk dropped', { messageId: record.messageId });
      continue;
    }
    try {
      await runtime.jobs.chunkDeadLettered(failure.jobId, failure.chunkIndex, failure.reason);
    } catch (error) {
      logger.error('could not mark job failed', { jobId: failure.jobId, error: error as Error });
      batchItemFailures.push({ itemIdentifier: record.messageId });
    }
  }
  return { batchItemFailures };
}

export const handler = middy(failDeadLetteredJobs).use(tracingMiddleware).use(injectLambdaContext(logger));
