import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { OnnxCrossEncoder } from '../../../shared/scoring/onnx-cross-encoder.js';
import { percentile } from './bench-stats.js';
import type { BenchRequest } from './bench-documents.js';

export interface ConcurrencyResult {
  readonly smallRequests: number;
  readonly smallP50Ms: number;
  readonly smallP95Ms: number;
  readonly largeRequests: number;
  readonly eventLoopDelayP99Ms: number;
  readonly eventLoopDelayMaxMs: number;
  readonly pairsPerSecond: number;
}

/**
 * A local server's day: one client streams large rerank requests back to back while `smallClients` clients
 * send small ones in closed loops. Reports the small requests' latency and the event loop's delay (what a
 * health check or any other request waits before it is even read).
 */
export async function concurrentLoad(
  scorer: OnnxCrossEncoder,
  large: BenchRequest,
  small: BenchRequest,
  seconds: number,
  smallClients = 2,
): Promise<ConcurrencyResult> {
  const deadline = performance.now() + seconds * 1000;
  const smallLatencies: number[] = [];
  let largeRequests = 0;
  let pairs = 0;
  const delay = monitorEventLoopDelay({ resolution: 5 });
  delay.enable();
  const largeLoop = async (): Promise<void> => {
    while (performance.now() < deadline) {
      await scorer.score(large.query, large.documents);
      largeRequests++;
      pairs += large.documents.length;
    }
  };
  const smallLoop = async (): Promise<void> => {
    // Staggered start so small requests arrive while a large one is in flight.
    await new Promise((resolve) => setTimeout(resolve, 20));
    while (performance.now() < deadline) {
      const start = performance.now();
      await scorer.score(small.query, small.documents);
      smallLatencies.push(performance.now() - start);
      pairs += small.documents.length;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  };
  const started = performance.now();
  await Promise.all([largeLoop(), ...Array.from({ length: smallClients }, smallLoop)]);
  const elapsed = (performance.now() - started) / 1000;
  delay.disable();
  return {
    smallRequests: smallLatencies.length,
    smallP50Ms: percentile(smallLatencies, 50),
    smallP95Ms: percentile(smallLatencies, 95),
    largeRequests,
    eventLoopDelayP99Ms: delay.percentile(99) / 1e6,
    eventLoopDelayMaxMs: delay.max / 1e6,
    pairsPerSecond: pairs / elapsed,
  };
}
