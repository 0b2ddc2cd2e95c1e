import { Metrics } from '@aws-lambda-powertools/metrics';

/**
 * CloudWatch metrics as EMF log lines (no API calls, no extra latency). Flushed once per invocation by
 * the handler's publishRecordedMetrics middleware.
 */
export const metrics = new Metrics({
  namespace: process.env['POWERTOOLS_METRICS_NAMESPACE'] ?? 'RerankService',
  serviceName: process.env['POWERTOOLS_SERVICE_NAME'] ?? 'rerank',
});
