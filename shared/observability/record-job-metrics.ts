import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { emitMetricEvent } from './metric-events.js';
import { metrics } from './metrics.js';

export interface EndedJob {
  readonly documentCount: number;
  readonly chunkCount: number;
  /** Epoch seconds. */
  readonly createdAt: number;
}

/** The metric the JobsFailed alarm watches (infra/constructs/rerank-monitoring.ts names it too). */
export const JOBS_FAILED = 'JobsFailed';

/**
 * Job metrics, recorded once per job at the one transition that ended it (merge or failure; the dead-letter
 * consumer fails jobs through the same path). A single-metric set with only the default `service` dimension,
 * written at once: no request dimension (dialect) leaks in, and nothing waits for a handler's flush.
 */
export function recordJobEnded(job: EndedJob, status: 'succeeded' | 'failed', nowSeconds: number): void {
  const single = metrics.singleMetric();
  single.addMetric(status === 'succeeded' ? 'JobsSucceeded' : JOBS_FAILED, MetricUnit.Count, 1);
  const wall = metrics.singleMetric();
  wall.addMetric('JobWallTime', MetricUnit.Seconds, Math.max(0, nowSeconds - job.createdAt));
  const documents = metrics.singleMetric();
  documents.addMetric('JobDocuments', MetricUnit.Count, job.documentCount);
  const chunks = metrics.singleMetric();
  chunks.addMetric('JobChunks', MetricUnit.Count, job.chunkCount);
  emitMetricEvent({
    kind: 'job-ended',
    status,
    documents: job.documentCount,
    chunks: job.chunkCount,
    wallSeconds: Math.max(0, nowSeconds - job.createdAt),
  });
}
