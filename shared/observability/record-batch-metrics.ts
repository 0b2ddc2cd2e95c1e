import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { emitMetricEvent } from './metric-events.js';
import { metrics } from './metrics.js';
import {
  BATCH_CHUNKS_METRIC,
  BATCH_CHUNK_DOCUMENTS_METRIC,
  BATCH_CHUNK_SOURCE_DIMENSION,
  type BatchChunkSource,
} from './batch-metric-names.js';

/**
 * A task's batch chunks by source, recorded once when the task ends: a group task records a chunk for each of its up
 * to 64 lines, and one EMF set per line's chunk would be a log line per line per shard (31 million for 1,000 lines over
 * a million documents) where one per task and source says the same.
 */
export class BatchChunkTally {
  readonly #bySource = new Map<BatchChunkSource, { chunks: number; documents: number }>();

  /** One chunk recorded (its first recording, not a redelivery's), of `documents` documents. */
  add(source: BatchChunkSource, documents: number): void {
    const sum = this.#bySource.get(source) ?? { chunks: 0, documents: 0 };
    this.#bySource.set(source, { chunks: sum.chunks + 1, documents: sum.documents + documents });
  }

  /** Writes what was added, on CloudWatch (one single-metric set per source) and to local listeners; then starts over. */
  record(): void {
    for (const [source, { chunks, documents }] of this.#bySource) recordBatchChunks(source, chunks, documents);
    this.#bySource.clear();
  }
}

/**
 * Batch chunks scored and recorded: on Lambda as EMF (single-metric sets by `source`, so the dashboard shows a corpus
 * being analysed, then served from its stored analysis), and to the local server's /metrics listeners. Written at
 * once: nothing waits for a handler's flush.
 */
function recordBatchChunks(source: BatchChunkSource, chunks: number, documents: number): void {
  const counted = metrics.singleMetric();
  counted.addDimension(BATCH_CHUNK_SOURCE_DIMENSION, source);
  counted.addMetric(BATCH_CHUNKS_METRIC, MetricUnit.Count, chunks);
  const scored = metrics.singleMetric();
  scored.addDimension(BATCH_CHUNK_SOURCE_DIMENSION, source);
  scored.addMetric(BATCH_CHUNK_DOCUMENTS_METRIC, MetricUnit.Count, documents);
  emitMetricEvent({ kind: 'batch-chunk', source, chunks, documents });
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
