import * as ort from 'onnxruntime-node';
import { shardProductsModel } from './onnx-graph-bytes.js';

/** One session per embedding width, in this thread, one intra-op thread: a shard's product is milliseconds at most. */
const sessions = new Map<number, Promise<ort.InferenceSession>>();
function sessionFor(dimensions: number): Promise<ort.InferenceSession> {
  let session = sessions.get(dimensions);
  if (!session) {
    session = ort.InferenceSession.create(shardProductsModel(dimensions), {
      intraOpNumThreads: 1,
      interOpNumThreads: 1,
      executionMode: 'sequential',
    });
    session.catch(() => sessions.delete(dimensions));
    sessions.set(dimensions, session);
  }
  return session;
}

/** Sum of squares of one fp32 row in float64 (a query's norm, as cosine() computes it). */
function squaredNorm(row: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < row.length; i++) sum += row[i]! * row[i]!;
  return sum;
}

/**
 * cosine(query q, document d) for every query of a group and every row of a shard's fp32 vectors: result[q][d]. The
 * products and the rows' squared norms are one ONNX graph (Gemm + ReduceSumSquare, fp32, onnxruntime's own kernels:
 * ~50x the JavaScript loop here), each row read once for the whole group; the division is float64. fp32 accumulation
 * moves a cosine by ~1e-7 from the bi-encoder's float64 cosine(), inside the 1e-5 the tests hold it to. 0 when either
 * vector is all zeros.
 */
export async function shardCosines(queries: readonly Float32Array[], data: Float32Array, dimensions: number): Promise<Float64Array[]> {
  const count = dimensions === 0 ? 0 : data.length / dimensions;
  if (queries.length === 0 || count === 0) return queries.map(() => new Float64Array(count));
  const stacked = new Float32Array(queries.length * dimensions);
  queries.forEach((q, i) => stacked.set(q, i * dimensions));
  const session = await sessionFor(dimensions);
  const out = await session.run({
    Q: new ort.Tensor('float32', stacked, [queries.length, dimensions]),
    D: new ort.Tensor('float32', data, [count, dimensions]),
  });
  const dots = out['dots']!.data as Float32Array;
  const squares = out['squares']!.data as Float32Array;
  return queries.map((query, q) => {
    const normA = squaredNorm(query);
    const scores = new Float64Array(count);
    for (let d = 0; d < count; d++) {
      const normB = squares[d]!;
      scores[d] = normA === 0 || normB === 0 ? 0 : dots[q * count + d]! / Math.sqrt(normA * normB);
    }
    return scores;
  });
}
