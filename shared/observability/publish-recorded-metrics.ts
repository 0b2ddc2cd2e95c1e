import type { MiddlewareObj } from '@middy/core';
import type { Metrics } from '@aws-lambda-powertools/metrics';

/**
 * Flushes the invocation's metrics as one EMF line - only when something was recorded. Powertools'
 * logMetrics middleware warns "No application metrics to publish" on every invocation that recorded none
 * (health checks, polls, rejected requests), a log line per request that says nothing.
 */
export function publishRecordedMetrics(metrics: Metrics): MiddlewareObj {
  const publish = (): void => {
    if (metrics.hasStoredMetrics()) metrics.publishStoredMetrics();
    else metrics.clearDimensions();
  };
  return { after: publish, onError: publish };
}
