import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import type { Request } from '@middy/core';
import { describe, expect, it } from 'vitest';
import { publishRecordedMetrics } from '../../../shared/observability/publish-recorded-metrics.js';

function metricsWithWarnings() {
  const warnings: string[] = [];
  const log = () => undefined;
  const logger = { warn: (message: string) => void warnings.push(message), info: log, error: log, debug: log };
  const metrics = new Metrics({ namespace: 'Test', serviceName: 'test', logger });
  return { metrics, warnings };
}

const request = {} as Request;

describe('publishRecordedMetrics', () => {
  it('says nothing for an invocation that recorded no metric (Powertools would warn on each one)', async () => {
    const { metrics, warnings } = metricsWithWarnings();
    await publishRecordedMetrics(metrics).after?.(request);
    expect(warnings).toEqual([]);
  });

  it('flushes what was recorded, so the next invocation starts empty', async () => {
    const { metrics, warnings } = metricsWithWarnings();
    metrics.addMetric('Documents', MetricUnit.Count, 3);
    expect(metrics.hasStoredMetrics()).toBe(true);
    await publishRecordedMetrics(metrics).after?.(request);
    expect(metrics.hasStoredMetrics()).toBe(false);
    expect(warnings).toEqual([]);
  });

  it('flushes on errors too', async () => {
    const { metrics } = metricsWithWarnings();
    metrics.addMetric('Documents', MetricUnit.Count, 1);
    await publishRecordedMetrics(metrics).onError?.(request);
    expect(metrics.hasStoredMetrics()).toBe(false);
  });
});
