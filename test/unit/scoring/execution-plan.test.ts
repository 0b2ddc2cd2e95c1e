import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { chooseExecutionPlan, processMemoryBytes, quantizesActivationsPerRun } from '../../../shared/scoring/execution-plan.js';
import { FIXTURE_MODEL_DIR, FIXTURE_MODEL_FILE } from './fixture-model.js';

const MB = 2 ** 20;
const GB = 2 ** 30;

describe('chooseExecutionPlan', () => {
  it('runs one in-thread single-threaded session on one CPU', () => {
    expect(chooseExecutionPlan({ threads: 1, modelBytes: 23 * MB, memoryBytes: 1769 * MB })).toEqual({
      inWorkerThreads: false,
      workers: 1,
      intraOpThreads: 1,
    });
  });

  it('runs one single-threaded session per CPU on worker threads when memory allows', () => {
    expect(chooseExecutionPlan({ threads: 6, modelBytes: 90 * MB, memoryBytes: 10 * GB })).toEqual({
      inWorkerThreads: true,
      workers: 6,
      intraOpThreads: 1,
    });
  });

  it('trades sessions for intra-op threads when copies of a large model would not fit', () => {
    // Act: 1.1 GB of weights x 3 per session, half of 10 GB for sessions -> 1 session
    const plan = chooseExecutionPlan({ threads: 6, modelBytes: 1100 * MB, memoryBytes: 10 * GB });

    // Assert
    expect(plan).toEqual({ inWorkerThreads: true, workers: 1, intraOpThreads: 6 });
  });

  it('keeps every CPU busy in a mix: sessions x intra-op threads never exceed the CPUs', () => {
    // Act
    const plan = chooseExecutionPlan({ threads: 6, modelBytes: 500 * MB, memoryBytes: 10 * GB });

    // Assert
    expect(plan.workers).toBe(3);
    expect(plan.intraOpThreads).toBe(2);
    expect(plan.workers * plan.intraOpThreads).toBeLessThanOrEqual(6);
  });
});

describe('processMemoryBytes', () => {
  it('reads the Lambda memory size', () => {
    expect(processMemoryBytes({ AWS_LAMBDA_FUNCTION_MEMORY_SIZE: '3538' })).toBe(3538 * MB);
  });
});

describe('quantizesActivationsPerRun', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'rerank-graph-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('is false for the fixture (weights quantized ahead of time, no per-run activation scale)', async () => {
    expect(await quantizesActivationsPerRun(path.join(FIXTURE_MODEL_DIR, FIXTURE_MODEL_FILE))).toBe(false);
  });

  it('finds a DynamicQuantizeLinear op type even across a read-chunk boundary', async () => {
    // Arrange: the op name straddles the 1 MiB stream chunk
    const file = path.join(dir, 'dynamic.onnx');
    const before = Buffer.alloc((1 << 20) - 7, 0x20);
    writeFileSync(file, Buffer.concat([before, Buffer.from('DynamicQuantizeLinear'), Buffer.alloc(100, 0x20)]));

    // Act / Assert
    expect(await quantizesActivationsPerRun(file)).toBe(true);
  });
});
