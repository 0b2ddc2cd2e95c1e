import { describe, expect, it } from 'vitest';
import { documentsPerJob, predictJob, type JobScenario } from '../../../scripts/measure/scale/job-simulation.js';
import { lambdaThroughput } from '../../../scripts/measure/scale/lambda-throughput.js';
import { replaceBetweenMarkers } from '../../../scripts/measure/scale/readme-section.js';

const base: JobScenario = {
  documents: 10_000,
  concurrency: 10,
  memoryMb: 3538,
  architecture: 'arm64',
  pairsPerSecond: 40,
  overheadPerChunkSeconds: 0.05,
  coldStartSeconds: 0.5,
};

describe('predictJob', () => {
  it('never predicts a longer wall time for more workers', () => {
    // Act
    const walls = [10, 100, 1000].map((concurrency) => predictJob({ ...base, documents: 100_000, concurrency }).wallSeconds);

    // Assert
    expect(walls[1]).toBeLessThanOrEqual(walls[0]!);
    expect(walls[2]).toBeLessThanOrEqual(walls[1]!);
  });

  it('with no limits, matches chunks x chunk time / workers', () => {
    // Act
    const p = predictJob({ ...base, documents: 6400, chunkDocuments: 64, concurrency: 4, unlimited: true });

    // Assert: 100 chunks of (0.05 + 64/40) s over 4 workers, plus the last chunk
    const chunkSeconds = 0.05 + 64 / 40;
    expect(p.chunks).toBe(100);
    expect(p.wallSeconds).toBeCloseTo((100 * chunkSeconds) / 4 + chunkSeconds, 6);
  });

  it("spreads one job's chunk writes over its counters' partitions: small chunks of a fast model no longer bind on DynamoDB", () => {
    // Act: 750 chunks of 8 documents, ~12 a second per worker: the job's META transactions (~250/s) bound this; its 12
    // counter partitions (~3,000 chunks/s) and the table (~1,000) are not reached before the SQS ramp has done the job.
    const p = predictJob({
      ...base,
      documents: 6000,
      chunkDocuments: 8,
      concurrency: 1000,
      pairsPerSecond: 5000,
      overheadPerChunkSeconds: 0.08,
    });

    // Assert
    expect(p.binding.join(' ')).not.toMatch(/DynamoDB/);
    expect(p.binding.join(' ')).toMatch(/SQS scale-up ramp/);
  });

  it("marks the table's write rate when many jobs of small chunks outrun a new on-demand table", () => {
    // Act: 200,000 documents (32 jobs) of 8-document chunks at 1,000 workers
    const p = predictJob({
      ...base,
      documents: 200_000,
      chunkDocuments: 8,
      concurrency: 1000,
      pairsPerSecond: 5000,
      overheadPerChunkSeconds: 0.08,
    });

    // Assert
    expect(p.binding.join(' ')).toMatch(/DynamoDB table write rate/);
  });

  it('splits a set larger than one request into several jobs', () => {
    // Act
    const p = predictJob({ ...base, documents: 1_000_000 });

    // Assert
    expect(p.jobs).toBe(Math.ceil(1_000_000 / documentsPerJob(900)));
    expect(p.binding.join(' ')).toMatch(/6 MB request body/);
    expect(p.cost.total).toBeGreaterThan(p.cost.compute);
  });
});

describe('lambdaThroughput', () => {
  const points = [
    { threads: 1, pairsPerSecond: 10 },
    { threads: 2, pairsPerSecond: 18 },
  ];

  it('uses the measurement at a measured thread count', () => {
    expect(lambdaThroughput(points, 3538)).toMatchObject({ threads: 2, pairsPerSecond: 18, basis: 'measured' });
  });

  it('scales one thread by the CPU share below one vCPU', () => {
    const t = lambdaThroughput(points, 1024);
    expect(t.basis).toBe('scaled');
    expect(t.pairsPerSecond).toBeCloseTo((10 * 1024) / 1769, 9);
  });

  it('extrapolates past the measured threads with the measured marginal gain', () => {
    // Act: each thread past the first added 0.8 of one thread
    const t = lambdaThroughput(points, 10240);

    // Assert
    expect(t).toMatchObject({ threads: 6, basis: 'extrapolated' });
    expect(t.pairsPerSecond).toBeCloseTo(18 + 10 * 0.8 * 4, 9);
  });
});

describe('replaceBetweenMarkers', () => {
  it('replaces only the text between the markers, keeping them', () => {
    const text = 'a\n<!-- t:start -->\nold\n<!-- t:end -->\nb';
    expect(replaceBetweenMarkers(text, 't', 'new')).toBe('a\n<!-- t:start -->\nnew\n<!-- t:end -->\nb');
    expect(() => replaceBetweenMarkers('no markers', 't', 'x')).toThrow(/not found/);
  });
});
