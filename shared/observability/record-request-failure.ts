import { MetricUnit } from '@aws-lambda-powertools/metrics';
import type { RerankErrorKind } from '../core/rerank-error.js';
import { emitMetricEvent } from './metric-events.js';
import { metrics } from './metrics.js';

/**
 * One refused or failed request, counted by its error kind: a model failure (`model_failed`), a deadline
 * (`timed_out`), a job still running and the service's own bugs (`internal`) share statuses but not kinds, so
 * dashboards and alarms tell them apart. A single-metric set written at once, as job metrics are.
 */
export function recordRequestFailure(kind: RerankErrorKind, status: number): void {
  const single = metrics.singleMetric();
  single.addDimension('errorKind', kind);
  single.addMetric('RequestErrors', MetricUnit.Count, 1);
  emitMetricEvent({ kind: 'request-failed', errorKind: kind, status });
}
