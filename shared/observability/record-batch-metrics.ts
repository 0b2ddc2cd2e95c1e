import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { emitMetricEvent } from './metric-events.js';
import { metrics } from './metrics.js';
import { BATCH_CHUNKS_METRIC, BATCH_CHUNK_DOCUMENTS_METRIC, BATCH_CHUNK_SOURCE_DIMENSION, type BatchChunkSource } from './batch-metric-names.js';


/**
 * A batch chunk scored and recorded, once per chunk whatever the deliveries: on Lambda as EMF (a single-metric set by
 * `source`, so the dashboard shows a corpus being analysed, then served from its stored analysis), and to the local
 * server's /metrics listeners. Written at once: nothing waits for a handler's flush.
 */
export function recordBatchChunk(source: BatchChunkSource, documents: number): void {
  const chunks = metrics.singleMetric();
  chunks.addDimension(BATCH_CHUNK_SOURCE_DIMENSION, source);
  chunks.addMetric(BATCH_CHUNKS_METRIC, MetricUnit.Count, 1);
  const scored = metrics.singleMetric();
  scored.addDimension(BATCH_CHUNK_SOURCE_DIMENSION, source);
  scored.addMetric(BATCH_CHUNK_DOCUMENTS_METRIC, MetricUnit.Count, documents);
  emitMetricEvent({ kind: 'batch-chunk', source, documents });
}

/** A batch ended (the one transition that ended it): its status and its lines, on CloudWatch and to local listeners. */
export function recordBatchEnded(status: string, completedLines: number, failedLines: number): void {
  const ended = metrics.singleMetric();
  ended.addDimension('status', status);
  ended.addMetric('BatchesEnded', MetricUnit.Count, 1);
  const lines = metrics.singleMetric();
  lines.addMetric('BatchLinesCompleted', MetricUnit.Count, completedLines);
  lines.addMetric('BatchLinesFailed', MetricUnit.Count, failedLines);
  emitMetricEvent({ kind: 'batch-ended', status, completedLines, failedLines });
}
