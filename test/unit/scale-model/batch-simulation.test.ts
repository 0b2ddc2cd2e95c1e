import { describe, expect, it } from 'vitest';
import { predictBatch, type BatchCallProfile, type BatchScenario } from '../../../scripts/measure/scale/batch-simulation.js';

const calls: BatchCallProfile = {
  workerCallSecondsPerChunk: 0.04,
  sendSeconds: 0.02,
  putSeconds: 0.005,
  querySeconds: 0.004,
  writeUnitsPerChunk: 4,
  readUnitsPerChunk: 4,
  s3GetsPerChunk: 1,
};
const base: BatchScenario = {
  requests: 100,
  documentsPerRequest: 64,
  corpus: false,
  concurrency: 10,
  memoryMb: 3538,
  pairsPerSecond: 64,
  coldStartSeconds: 0,
  calls,
  unlimited: true,
};

describe('predictBatch', () => {
  it('is scoring-bound with few fast-planned chunks: chunks / workers x chunk time, plus the last chunk and the output', () => {
    const p = predictBatch(base);
    expect(p.chunks).toBe(100);
    // 100 chunks of 1.04 s on 10 workers: about 10.4 s, plus one chunk (the last) and a little output.
    expect(p.wallSeconds).toBeGreaterThan(10.4);
    expect(p.wallSeconds).toBeLessThan(12.5);
    expect(p.binding).toStrictEqual([]);
  });

  it("spreads one huge corpus request's chunk writes over the batch's partitions: only the table's rate binds", () => {
    const p = predictBatch({
      ...base,
      unlimited: false,
      requests: 1,
      documentsPerRequest: 1_000_000,
      corpus: true,
      concurrency: 1000,
      pairsPerSecond: 20_000,
    });
    expect(p.chunks).toBe(15_625);
    expect(p.binding.join(' ')).toMatch(/DynamoDB table write rate/);
    expect(p.binding.join(' ')).not.toMatch(/partitions of the batch/);
  });

  it('names the planner when many small lines are planned slower than the workers take them', () => {
    // Slow writes and sends (0.2 s each): one planner with rounds of 640 tasks plans ~100 lines/s, slower than 1,000 workers.
    const slowPlanner = { ...calls, putSeconds: 0.2, sendSeconds: 0.2 };
    const p = predictBatch({
      ...base,
      unlimited: false,
      requests: 10_000,
      documentsPerRequest: 100,
      concurrency: 1000,
      pairsPerSecond: 2000,
      calls: slowPlanner,
    });
    expect(p.binding.join(' ')).toMatch(/the planner: one invocation plans \d+ lines\/s/);
  });

  it('costs in proportion to the chunks when nothing binds', () => {
    const one = predictBatch(base).cost.total;
    const ten = predictBatch({ ...base, requests: 1000 }).cost.total;
    expect(ten / one).toBeGreaterThan(9.5);
    expect(ten / one).toBeLessThan(10.5);
  });
});
