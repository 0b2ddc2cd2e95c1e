import { describe, expect, it } from 'vitest';
import type { BatchCallProfile } from '../../../scripts/measure/scale/batch-simulation.js';
import { predictStoredCorpus, type StoredCorpusMeasurements } from '../../../scripts/measure/scale/stored-corpus-model.js';

const calls: BatchCallProfile = {
  workerCallSecondsPerChunk: 0.04,
  sendSeconds: 0.02,
  putSeconds: 0.005,
  querySeconds: 0.004,
  writeUnitsPerChunk: 4,
  readUnitsPerChunk: 4,
  s3GetsPerChunk: 1,
};
/** A run shaped like the million-document profile: 1,600 shards, 1,000 s of analysis and 200 s for 1,000 lines on 2 cores. */
const measured: StoredCorpusMeasurements = {
  date: '2026-11-26T00:00:00Z',
  machine: '2 x test',
  cpus: 2,
  load: [1, 2],
  documents: 1_000_000,
  corpusBytes: 200e6,
  shards: 1_600,
  storedBytes: 2.2e9,
  analysisMs: 1_000_000,
  oneLineMs: [2000],
  lines: 1_000,
  manyLinesMs: 200_000,
  peakRssMb: 600,
};
const scenario = { documents: 1_000_000, lines: 1_000, concurrency: 100, coldStartSeconds: 0, analysis: false };

describe('predictStoredCorpus', () => {
  it('fans the analysis out a task per span of 16 shards: its compute is the measured vCPU time, its wall that over the workers', () => {
    const p = predictStoredCorpus(measured, calls, { ...scenario, analysis: true, lines: 0 });
    expect(p.tasks).toBe(100);
    // 2,000 vCPU-seconds over 100 workers (the SQS ramp reaches 100 in ~19 s): about 20 s of work after the ramp.
    expect(p.wallSeconds).toBeGreaterThan(20);
    expect(p.wallSeconds).toBeLessThan(60);
    expect(p.cost.compute).toBeGreaterThan(2_000 * 0.0000166667);
  });

  it('groups 1,000 lines 64 a task: 16 groups x 100 spans, one ledger record per line and span', () => {
    const p = predictStoredCorpus(measured, calls, scenario);
    expect(p.tasks).toBe(16 * 100);
    // 1,000 lines x 100 spans x (4 write units + 2 reads), plus each line's own calls once (4 + 4 here), on demand.
    expect(p.cost.store).toBeCloseTo(1_000 * 100 * (4 * 0.625e-6 + 2 * 0.125e-6) + 1_000 * (4 * 0.625e-6 + 4 * 0.125e-6), 6);
    // Each task GETs its span's 16 shards once for its whole group.
    expect(p.cost.files).toBeCloseTo(1_600 * 16 * 0.0004e-3, 9);
  });

  it('scales with the documents and the lines, and runs no faster than the concurrency allows', () => {
    const half = predictStoredCorpus(measured, calls, { ...scenario, documents: 500_000 });
    const full = predictStoredCorpus(measured, calls, scenario);
    expect(half.cost.total).toBeLessThan(full.cost.total);
    const few = predictStoredCorpus(measured, calls, { ...scenario, concurrency: 10 });
    expect(few.wallSeconds).toBeGreaterThan(full.wallSeconds);
    expect(few.cost.compute).toBeCloseTo(full.cost.compute, 6);
  });
});
