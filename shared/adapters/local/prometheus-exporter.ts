import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { onMetricEvent } from '../../observability/metric-events.js';

/** Seconds: from a cached small request to a long job. */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];
const JOB_BUCKETS = [0.1, 0.5, 1, 5, 10, 30, 60, 300, 900, 3600];
const DOCUMENT_BUCKETS = [1, 10, 50, 100, 256, 1000, 10_000];

export interface PrometheusExporter {
  /** Counts one HTTP exchange: `route` is the matched route's template (ids never become label values). */
  observeRequest(method: string, route: string, status: number, seconds: number): void;
  /** The text exposition format of every metric. */
  render(): Promise<{ contentType: string; body: string }>;
  /** Stops listening to the service's metric events. */
  close(): void;
}

/**
 * The local server's Prometheus `/metrics` (on Lambda the same figures go to CloudWatch as EMF): HTTP
 * requests and latency by route, documents, tokens and scoring time by dialect and model, jobs and
 * batches by how they ended, and the process's own metrics. Its own registry, so tests can run several.
 */
export function createPrometheusExporter(): PrometheusExporter {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'rerank_' });
  const requests = new Counter({
    name: 'rerank_http_requests_total',
    help: 'HTTP requests answered, by method, route template and status.',
    labelNames: ['method', 'route', 'status'],
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'rerank_http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by method and route template.',
    labelNames: ['method', 'route'],
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  const documents = new Histogram({
    name: 'rerank_request_documents',
    help: 'Documents per scored request, by dialect and model.',
    labelNames: ['dialect', 'model'],
    buckets: DOCUMENT_BUCKETS,
    registers: [registry],
  });
  const tokens = new Counter({
    name: 'rerank_tokens_total',
    help: 'Model tokens consumed, by dialect and model.',
    labelNames: ['dialect', 'model'],
    registers: [registry],
  });
  const scoring = new Histogram({
    name: 'rerank_scoring_duration_seconds',
    help: 'Scoring time per request, by model.',
    labelNames: ['model'],
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  const fallbacks = new Counter({
    name: 'rerank_fallbacks_total',
    help: 'Requests answered by a fallback strategy, by dialect.',
    labelNames: ['dialect'],
    registers: [registry],
  });
  const jobs = new Counter({
    name: 'rerank_jobs_ended_total',
    help: 'Async jobs ended, by status.',
    labelNames: ['status'],
    registers: [registry],
  });
  const jobTime = new Histogram({
    name: 'rerank_job_duration_seconds',
    help: 'Wall time from job submission to its end.',
    labelNames: ['status'],
    buckets: JOB_BUCKETS,
    registers: [registry],
  });
  const batches = new Counter({
    name: 'rerank_batches_ended_total',
    help: 'Batches ended, by final status.',
    labelNames: ['status'],
    registers: [registry],
  });
  const batchLines = new Counter({
    name: 'rerank_batch_lines_total',
    help: 'Batch request lines written at a batch end, by outcome.',
    labelNames: ['outcome'],
    registers: [registry],
  });
  for (const outcome of ['completed', 'failed']) batchLines.inc({ outcome }, 0);
  const batchChunks = new Counter({
    name: 'rerank_batch_chunks_total',
    help: 'Batch chunks scored, by source: analysed (a corpus shard encoded and stored now), stored (read back) or encoded (for this line alone).',
    labelNames: ['source'],
    registers: [registry],
  });
  const batchChunkDocuments = new Counter({
    name: 'rerank_batch_chunk_documents_total',
    help: 'Documents in batch chunks scored, by source.',
    labelNames: ['source'],
    registers: [registry],
  });
  for (const source of ['analysed', 'stored', 'encoded']) {
    batchChunks.inc({ source }, 0);
    batchChunkDocuments.inc({ source }, 0);
  }
  const failures = new Counter({
    name: 'rerank_request_errors_total',
    help: 'Requests answered with an error, by error kind (model_failed, timed_out, internal, ...) and status.',
    labelNames: ['kind', 'status'],
    registers: [registry],
  });

  const stop = onMetricEvent((event) => {
    switch (event.kind) {
      case 'rerank':
        documents.observe({ dialect: event.dialect, model: event.model }, event.documents);
        tokens.inc({ dialect: event.dialect, model: event.model }, event.tokens);
        scoring.observe({ model: event.model }, event.scoringSeconds);
        if (event.fallback) fallbacks.inc({ dialect: event.dialect });
        break;
      case 'job-ended':
        jobs.inc({ status: event.status });
        jobTime.observe({ status: event.status }, event.wallSeconds);
        break;
      case 'batch-chunk':
        batchChunks.inc({ source: event.source }, event.chunks);
        batchChunkDocuments.inc({ source: event.source }, event.documents);
        break;
      case 'batch-ended':
        batches.inc({ status: event.status });
        batchLines.inc({ outcome: 'completed' }, event.completedLines);
        batchLines.inc({ outcome: 'failed' }, event.failedLines);
        break;
      case 'request-failed':
        failures.inc({ kind: event.errorKind, status: String(event.status) });
        break;
    }
  });
  return {
    observeRequest(method, route, status, seconds) {
      requests.inc({ method, route, status: String(status) });
      latency.observe({ method, route }, seconds);
    },
    async render() {
      return { contentType: registry.contentType, body: await registry.metrics() };
    },
    close: stop,
  };
}
