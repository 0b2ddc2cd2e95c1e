/**
 * What the service measures, as plain events, for in-process listeners (the local server's Prometheus
 * `/metrics`). On Lambda nobody listens and CloudWatch gets the same figures as EMF; emitting costs a
 * loop over an empty array there. Never carries query or document text.
 */
export type MetricEvent =
  | {
      readonly kind: 'rerank';
      readonly dialect: string;
      readonly model: string;
      readonly documents: number;
      readonly tokens: number;
      readonly scoringSeconds: number;
      readonly fallback: boolean;
    }
  | {
      readonly kind: 'job-ended';
      readonly status: 'succeeded' | 'failed';
      readonly documents: number;
      readonly chunks: number;
      readonly wallSeconds: number;
    }
  /**
   * Batch chunks scored and recorded (once per chunk, whatever the deliveries), a task's at once: their corpus shard
   * analysed now (its documents encoded and stored), read from a stored analysis, or their documents encoded for their
   * line alone.
   */
  | {
      readonly kind: 'batch-chunk';
      readonly source: 'analysed' | 'stored' | 'encoded';
      readonly chunks: number;
      readonly documents: number;
    }
  | { readonly kind: 'batch-ended'; readonly status: string; readonly completedLines: number; readonly failedLines: number }
  | { readonly kind: 'request-failed'; readonly errorKind: string; readonly status: number };

type Listener = (event: MetricEvent) => void;
const listeners: Listener[] = [];

/** Adds a listener; the returned function removes it. */
export function onMetricEvent(listener: Listener): () => void {
  listeners.push(listener);
  return () => {
    const i = listeners.indexOf(listener);
    if (i >= 0) listeners.splice(i, 1);
  };
}

/** Tells every listener; a listener that throws never fails the request that measured. */
export function emitMetricEvent(event: MetricEvent): void {
  for (const listener of listeners) {
    try {
      listener(event);
    } catch {
      // Metrics are best effort by design.
    }
  }
}
