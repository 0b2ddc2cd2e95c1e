import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  chooseExecutionPlan,
  prefersOneSession,
  processMemoryBytes,
  quantizesActivationsPerRun,
} from '../../../shared/scoring/onnx-runtime/execution-plan.js';
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

  it('runs one single-threaded session per CPU on worker threads, plus an all-CPU session for small requests, when memory allows', () => {
    expect(chooseExecutionPlan({ threads: 6, modelBytes: 90 * MB, memoryBytes: 10 * GB })).toEqual({
      inWorkerThreads: true,
      workers: 6,
      intraOpThreads: 1,
      smallRequestSession: { intraOpThreads: 6 },
    });
  });

  it('leaves out the small-request session when memory has room for one session per CPU but not one more', () => {
    // Act: 3 x 150 MB per session, half of 2 GB for sessions -> 2 sessions fit, 2 CPUs
    const plan = chooseExecutionPlan({ threads: 2, modelBytes: 150 * MB, memoryBytes: 2 * GB });

    // Assert
    expect(plan).toEqual({ inWorkerThreads: true, workers: 2, intraOpThreads: 1 });
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

describe('prefersOneSession', () => {
  it('sends 8 + 2 pairs (10 documents of a dynamically quantized graph) to one 2-thread session: one worker would score 8 alone', () => {
    expect(prefersOneSession([8, 2], [8, 2], 2, 2)).toBe(true);
  });

  it('keeps 8 + 8 + 4 pairs on 2 single-threaded workers: their shares balance (12 vs 8, one session ~20 / 1.41)', () => {
    expect(prefersOneSession([8, 8, 4], [8, 8, 4], 2, 2)).toBe(false);
  });

  it('keeps a request the pool splits evenly (batch-invariant graph) on the pool', () => {
    expect(prefersOneSession([3, 3, 2, 2], [8, 2], 2, 2)).toBe(false);
  });

  it('sends a single pair to the all-CPU session', () => {
    expect(prefersOneSession([5], [5], 6, 6)).toBe(true);
  });

  it('keeps a large request on the pool at any size of machine', () => {
    const batches = Array.from({ length: 125 }, () => 8);
    expect(prefersOneSession(batches, batches, 2, 2)).toBe(false);
    expect(prefersOneSession(batches, batches, 6, 6)).toBe(false);
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

  // Protobuf by hand: a length-delimited field is its tag (field << 3 | 2), its length (a varint) and its bytes.
  const varint = (n: number): Buffer => {
    const bytes: number[] = [];
    for (; n >= 0x80; n = Math.floor(n / 128)) bytes.push((n % 128) | 0x80);
    bytes.push(n);
    return Buffer.from(bytes);
  };
  const field = (number: number, payload: Buffer): Buffer => Buffer.concat([varint(number * 8 + 2), varint(payload.length), payload]);
  /** ModelProto { ir_version, graph { node { op_type }, initializer { raw_data } } }, as an exporter writes it. */
  const model = (opType: string, weights: Buffer): Buffer => {
    const node = field(1, field(4, Buffer.from(opType)));
    const initializer = field(5, field(9, weights));
    return Buffer.concat([Buffer.from([0x08, 0x08]), field(7, Buffer.concat([node, initializer]))]);
  };

  it('finds the op type in the graph and not in the weights, which it does not read', async () => {
    // Arrange: 3 MiB of weights that happen to hold the name, as a byte search of the whole file would find it
    const weights = Buffer.concat([Buffer.alloc(3 << 20, 0x20), Buffer.from('DynamicQuantizeLinear')]);
    const plain = path.join(dir, 'plain.onnx');
    const dynamic = path.join(dir, 'dynamic-node.onnx');
    writeFileSync(plain, model('MatMul', weights));
    writeFileSync(dynamic, model('DynamicQuantizeLinear', weights));

    // Act / Assert
    expect(await quantizesActivationsPerRun(plain)).toBe(false);
    expect(await quantizesActivationsPerRun(dynamic)).toBe(true);
  });

  it('answers as a search of the whole file on every model folder of the repository', async () => {
    const graphs = ['tinybert-l2-fixture/onnx/model_quantized.onnx', 'use-lite/onnx/model.onnx', 'xlmr-fixture/onnx/model.onnx'];
    graphs.push(
      'qwen3-reranker-fixture/onnx/model.onnx',
      'qwen3-reranker-kv-fixture/onnx/model_fp16.onnx',
      'modernbert-fixture/onnx/model.onnx',
    );
    for (const graph of graphs) {
      const file = path.join('models', graph);
      expect(await quantizesActivationsPerRun(file), graph).toBe(readFileSync(file).includes('DynamicQuantizeLinear'));
    }
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
