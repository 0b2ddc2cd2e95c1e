import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

/** Batch metrics are EMF lines on stdout; the suite turns metrics off (vitest.config.ts), so this file turns them on. */
let lines: string[];

beforeEach(() => {
  vi.resetModules();
  vi.stubEnv('POWERTOOLS_METRICS_DISABLED', 'false');
  vi.stubEnv('POWERTOOLS_DEV', 'true');
  vi.stubEnv('POWERTOOLS_METRICS_NAMESPACE', 'RerankService');
  vi.stubEnv('POWERTOOLS_SERVICE_NAME', 'rerank');
  lines = [];
  vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => void lines.push(args.map(String).join(' ')));
});

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
});

// The unit project shares one module graph per worker: drop the modules loaded with metrics on.
afterAll(() => {
  vi.resetModules();
});

interface Emitted {
  readonly name: string;
  readonly value: number;
  readonly dimensions: Record<string, unknown>;
}

/** Every metric written so far, with the dimension values its set declares. */
function emitted(): Emitted[] {
  const found: Emitted[] = [];
  for (const line of lines) {
    if (!line.trimStart().startsWith('{')) continue;
    const emf = JSON.parse(line) as { _aws?: { CloudWatchMetrics: { Namespace: string; Dimensions: string[][]; Metrics: { Name: string }[] }[] } } & Record<string, unknown>;
    for (const set of emf._aws?.CloudWatchMetrics ?? []) {
      expect(set.Namespace).toBe('RerankService');
      const dimensions = Object.fromEntries((set.Dimensions[0] ?? []).map((name) => [name, emf[name]]));
      for (const { Name } of set.Metrics) found.push({ name: Name, value: emf[Name] as number, dimensions });
    }
  }
  return found;
}

describe('batch metrics on CloudWatch', () => {
  it('counts a chunk and its documents by where its document side came from, and tells local listeners', async () => {
    const { recordBatchChunk } = await import('../../../shared/observability/record-batch-metrics.js');
    const { onMetricEvent } = await import('../../../shared/observability/metric-events.js');
    const heard: unknown[] = [];
    const stop = onMetricEvent((event) => heard.push(event));
    recordBatchChunk('analysed', 50);
    recordBatchChunk('stored', 40);
    stop();
    expect(emitted()).toEqual([
      { name: 'BatchChunks', value: 1, dimensions: { service: 'rerank', source: 'analysed' } },
      { name: 'BatchChunkDocuments', value: 50, dimensions: { service: 'rerank', source: 'analysed' } },
      { name: 'BatchChunks', value: 1, dimensions: { service: 'rerank', source: 'stored' } },
      { name: 'BatchChunkDocuments', value: 40, dimensions: { service: 'rerank', source: 'stored' } },
    ]);
    expect(heard).toEqual([
      { kind: 'batch-chunk', source: 'analysed', documents: 50 },
      { kind: 'batch-chunk', source: 'stored', documents: 40 },
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
