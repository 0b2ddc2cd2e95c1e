import { Tracer } from '@aws-lambda-powertools/tracer';

/**
 * X-Ray through Powertools. Active only on Lambda with tracing on (the stack sets Tracing.ACTIVE); elsewhere
 * (npm start, tests) every call below is a no-op, so nothing here changes local behaviour.
 */
export const tracer = new Tracer({ serviceName: process.env['POWERTOOLS_SERVICE_NAME'] ?? 'rerank' });

/**
 * Runs `work` in its own subsegment (scoring, merge...) with the given annotations, which X-Ray indexes:
 * `annotation.jobId = "..."` finds the submit and every worker invocation of one job.
 */
export async function traced<T>(name: string, work: () => Promise<T>, annotations: Readonly<Record<string, string>> = {}): Promise<T> {
  const parent = tracer.isTracingEnabled() ? tracer.getSegment() : undefined;
  if (parent === undefined) return work();
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
  if (tracer.isTracingEnabled()) tracer.putAnnotation('jobId', jobId);
}
