import { describe, expect, it } from 'vitest';
import { captureEmfLines } from '../../support/emf-lines.js';

/** Batch metrics are EMF lines on stdout, as job metrics are. */
const emf = captureEmfLines();

interface Emitted {
  readonly name: string;
  readonly value: number;
  readonly dimensions: Record<string, unknown>;
}

/** Every metric written so far, with the dimension values its set declares. */
function emitted(): Emitted[] {
  const found: Emitted[] = [];
  for (const line of emf.lines) {
    if (!line.trimStart().startsWith('{')) continue;
    const emf = JSON.parse(line) as {
      _aws?: { CloudWatchMetrics: { Namespace: string; Dimensions: string[][]; Metrics: { Name: string }[] }[] };
    } & Record<string, unknown>;
    for (const set of emf._aws?.CloudWatchMetrics ?? []) {
      expect(set.Namespace).toBe('RerankService');
      const dimensions = Object.fromEntries((set.Dimensions[0] ?? []).map((name) => [name, emf[name]]));
      for (const { Name } of set.Metrics) found.push({ name: Name, value: emf[Name] as number, dimensions });
    }
  }
  return found;
}

describe('batch metrics on CloudWatch', () => {
  it("counts a task's chunks and their documents by where their document side came from, once per task and source", async () => {
    const { BatchChunkTally } = await import('../../../shared/observability/record-batch-metrics.js');
    const { onMetricEvent } = await import('../../../shared/observability/metric-events.js');
    const heard: unknown[] = [];
    const stop = onMetricEvent((event) => heard.push(event));
    // A group task over a shard analysed now: its first line analysed it, the other two read it.
    const tally = new BatchChunkTally();
    tally.add('analysed', 64);
    tally.add('stored', 64);
    tally.add('stored', 64);
    expect(emf.lines).toEqual([]);
    tally.record();
    tally.record();
    stop();
    expect(emitted()).toEqual([
      { name: 'BatchChunks', value: 1, dimensions: { service: 'rerank', source: 'analysed' } },
      { name: 'BatchChunkDocuments', value: 64, dimensions: { service: 'rerank', source: 'analysed' } },
      { name: 'BatchChunks', value: 2, dimensions: { service: 'rerank', source: 'stored' } },
      { name: 'BatchChunkDocuments', value: 128, dimensions: { service: 'rerank', source: 'stored' } },
    ]);
    expect(heard).toEqual([
      { kind: 'batch-chunk', source: 'analysed', chunks: 1, documents: 64 },
      { kind: 'batch-chunk', source: 'stored', chunks: 2, documents: 128 },
    ]);
  });

  it('counts an ended batch by status, with its completed and failed lines', async () => {
    const { recordBatchEnded } = await import('../../../shared/observability/record-batch-metrics.js');
    recordBatchEnded('completed', 19, 1);
    expect(emitted()).toEqual([
      { name: 'BatchesEnded', value: 1, dimensions: { service: 'rerank', status: 'completed' } },
      { name: 'BatchLinesCompleted', value: 19, dimensions: { service: 'rerank' } },
      { name: 'BatchLinesFailed', value: 1, dimensions: { service: 'rerank' } },
    ]);
  });
});
