import type { MiddlewareObj } from '@middy/core';
import type { Tracer } from '@aws-lambda-powertools/tracer';
import { timeAwsCalls } from './aws-call-timing.js';

/**
 * X-Ray through Powertools, loaded only on Lambda with tracing on (the stack sets Tracing.ACTIVE). The X-Ray SDK
 * turns on async_hooks (cls-hooked) when it loads, which slows every promise of the process, so `npm start`,
 * scripts and tests never import it: everything below is then a no-op.
 */
const onLambda = process.env['AWS_EXECUTION_ENV'] !== undefined && process.env['POWERTOOLS_TRACE_ENABLED'] !== 'false';

export const tracer: Tracer | undefined = onLambda
  ? new (await import('@aws-lambda-powertools/tracer')).Tracer({ serviceName: process.env['POWERTOOLS_SERVICE_NAME'] ?? 'rerank' })
  : undefined;

/** The handler's segment (cold start annotation, response/error capture); off Lambda a hook that does nothing (middy wants one). */
export const tracingMiddleware: MiddlewareObj = tracer
  ? (await import('@aws-lambda-powertools/tracer/middleware')).captureLambdaHandler(tracer)
  : { before: () => undefined };

/** An AWS SDK v3 client whose calls become DynamoDB/SQS subsegments where tracing is on, and are timed for onAwsCall. */
export const traceClient = <T>(client: T): T => (tracer ? tracer.captureAWSv3Client(timeAwsCalls(client)) : timeAwsCalls(client));

/**
 * Runs `work` in its own subsegment (scoring, merge...) with the given annotations, which X-Ray indexes:
 * `annotation.jobId = "..."` finds the submit and every worker invocation of one job.
 */
export async function traced<T>(name: string, work: () => Promise<T>, annotations: Readonly<Record<string, string>> = {}): Promise<T> {
  const parent = tracer?.isTracingEnabled() ? tracer.getSegment() : undefined;
  if (tracer === undefined || parent === undefined) return work();
  const subsegment = parent.addNewSubsegment(name);
  tracer.setSegment(subsegment);
  for (const [key, value] of Object.entries(annotations)) subsegment.addAnnotation(key, value);
  try {
    return await work();
  } catch (error) {
    subsegment.addError(error as Error);
    throw error;
  } finally {
    subsegment.close();
    tracer.setSegment(parent);
  }
}

/** Tags the current invocation's trace with a job id (submit in the API, each chunk in a worker). */
export function annotateJob(jobId: string): void {
  if (tracer?.isTracingEnabled()) tracer.putAnnotation('jobId', jobId);
}
