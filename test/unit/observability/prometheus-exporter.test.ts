import { afterEach, describe, expect, it } from 'vitest';
import { createPrometheusExporter, type PrometheusExporter } from '../../../shared/adapters/local/prometheus-exporter.js';
import { emitMetricEvent } from '../../../shared/observability/metric-events.js';
import { prometheusSamples as samples } from '../../support/prometheus-samples.js';

let exporter: PrometheusExporter | undefined;
afterEach(() => exporter?.close());

describe('the Prometheus exporter', () => {
  it('counts requests by route template and the events the service emits', async () => {
    exporter = createPrometheusExporter();
    exporter.observeRequest('POST', '/v1/rerank', 200, 0.02);
    exporter.observeRequest('POST', '/v1/rerank', 200, 0.3);
    exporter.observeRequest('GET', '/v1/rerank/jobs/{id}', 404, 0.001);
    emitMetricEvent({ kind: 'rerank', dialect: 'openai', model: 'bm25', documents: 3, tokens: 0, scoringSeconds: 0.002, fallback: false });
    emitMetricEvent({ kind: 'job-ended', status: 'failed', documents: 500, chunks: 4, wallSeconds: 12 });
    emitMetricEvent({ kind: 'batch-ended', status: 'completed', completedLines: 7, failedLines: 1 });
    const { contentType, body } = await exporter.render();
    expect(contentType).toMatch(/^text\/plain; version=0\.0\.4/);
    const s = samples(body);
    expect(s.get('rerank_http_requests_total{method="POST",route="/v1/rerank",status="200"}')).toBe(2);
    expect(s.get('rerank_http_requests_total{method="GET",route="/v1/rerank/jobs/{id}",status="404"}')).toBe(1);
    expect(s.get('rerank_http_request_duration_seconds_bucket{le="0.025",method="POST",route="/v1/rerank"}')).toBe(1);
    expect(s.get('rerank_request_documents_sum{dialect="openai",model="bm25"}')).toBe(3);
    expect(s.get('rerank_jobs_ended_total{status="failed"}')).toBe(1);
    expect(s.get('rerank_job_duration_seconds_sum{status="failed"}')).toBe(12);
    expect(s.get('rerank_batches_ended_total{status="completed"}')).toBe(1);
    expect(s.get('rerank_batch_lines_total{outcome="failed"}')).toBe(1);
    expect([...s.keys()].some((k) => k.startsWith('rerank_process_cpu_seconds_total'))).toBe(true);
  });

  it('stops counting service events once closed', async () => {
    exporter = createPrometheusExporter();
    exporter.close();
    emitMetricEvent({ kind: 'job-ended', status: 'succeeded', documents: 1, chunks: 1, wallSeconds: 1 });
    expect(samples((await exporter.render()).body).get('rerank_jobs_ended_total{status="succeeded"}')).toBeUndefined();
  });
});
