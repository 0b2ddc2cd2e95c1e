import { LIMITS } from './aws-limits.js';

/** One measured point: our scorer's pairs/s at a thread count (bench/scoring-measurements.json). */
export interface MeasuredPoint {
  readonly threads: number;
  readonly pairsPerSecond: number;
}

export interface LambdaThroughput {
  readonly memoryMb: number;
  readonly vcpus: number;
  /** Threads the scorer runs with (defaultIntraOpThreads: vCPUs of the memory size, at least 1). */
  readonly threads: number;
  readonly pairsPerSecond: number;
  /** 'measured' at this thread count, 'scaled' below one vCPU (CPU share), 'extrapolated' past the measured threads. */
  readonly basis: 'measured' | 'scaled' | 'extrapolated';
}

export const vcpusOf = (memoryMb: number): number => Math.min(LIMITS.lambdaMaxVcpus, memoryMb / LIMITS.lambdaMbPerVcpu);

/**
 * Pairs/s of one Lambda of a memory size from the bench's per-thread-count measurements. Below one vCPU
 * the function gets that share of one CPU. Past the largest measured thread count, each added thread is
 * worth what the measured ones added on average (the measured marginal scaling), never more than linear.
 */
export function lambdaThroughput(points: readonly MeasuredPoint[], memoryMb: number): LambdaThroughput {
  const sorted = [...points].sort((a, b) => a.threads - b.threads);
  const one = sorted.find((p) => p.threads === 1);
  if (one === undefined) throw new Error('scale model needs a 1-thread measurement (npm run bench -- --threads 1,...)');
  const vcpus = vcpusOf(memoryMb);
  if (vcpus < 1) return { memoryMb, vcpus, threads: 1, pairsPerSecond: one.pairsPerSecond * vcpus, basis: 'scaled' };
  const threads = Math.max(1, Math.round(vcpus));
  const exact = sorted.find((p) => p.threads === threads);
  if (exact !== undefined) return { memoryMb, vcpus, threads, pairsPerSecond: exact.pairsPerSecond, basis: 'measured' };
  const top = sorted[sorted.length - 1]!;
  const marginal = top.threads > 1 ? Math.min(1, Math.max(0, (top.pairsPerSecond / one.pairsPerSecond - 1) / (top.threads - 1))) : 1;
  const pairsPerSecond = top.pairsPerSecond + one.pairsPerSecond * marginal * (threads - top.threads);
  return { memoryMb, vcpus, threads, pairsPerSecond, basis: 'extrapolated' };
}
