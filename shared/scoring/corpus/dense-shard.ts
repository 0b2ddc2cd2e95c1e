/**
 * Dot product of a query row and a document row, in float64 with four accumulators (V8 runs the unrolled loop ~3x
 * faster than one accumulator; the sum's order differs from cosine()'s by float64 rounding, ~1e-16, far inside 1e-5).
 */
function dot(a: Float32Array, aStart: number, b: Float32Array, bStart: number, dimensions: number): number {
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  let i = 0;
  for (; i + 3 < dimensions; i += 4) {
    const x = aStart + i;
    const y = bStart + i;
    s0 += a[x]! * b[y]!;
    s1 += a[x + 1]! * b[y + 1]!;
    s2 += a[x + 2]! * b[y + 2]!;
    s3 += a[x + 3]! * b[y + 3]!;
  }
  for (; i < dimensions; i++) s0 += a[aStart + i]! * b[bStart + i]!;
  return s0 + s1 + s2 + s3;
}

/**
 * cosine(query q, document d) for every query of a group and every row of a shard's fp32 vectors, in one pass over
 * the rows (each row is read once for the whole group): result[q][d]. Products and sums are float64, as the
 * bi-encoder's cosine(), so a stored score equals the synchronous one; 0 when either vector is all zeros.
 */
export function shardCosines(queries: readonly Float32Array[], data: Float32Array, dimensions: number): Float64Array[] {
  const count = dimensions === 0 ? 0 : data.length / dimensions;
  const queryNorms = queries.map((q) => dot(q, 0, q, 0, dimensions));
  const scores = queries.map(() => new Float64Array(count));
  for (let d = 0; d < count; d++) {
    const start = d * dimensions;
    const documentNorm = dot(data, start, data, start, dimensions);
    for (let q = 0; q < queries.length; q++) {
      const normA = queryNorms[q]!;
      const query = queries[q]!;
      // The dot product inline (as dot() computes it): V8 does not inline the call in this hot loop.
      let s0 = 0;
      let s1 = 0;
      let s2 = 0;
      let s3 = 0;
      let i = 0;
      for (; i + 3 < dimensions; i += 4) {
        const y = start + i;
        s0 += query[i]! * data[y]!;
        s1 += query[i + 1]! * data[y + 1]!;
        s2 += query[i + 2]! * data[y + 2]!;
        s3 += query[i + 3]! * data[y + 3]!;
      }
      for (; i < dimensions; i++) s0 += query[i]! * data[start + i]!;
      scores[q]![d] = normA === 0 || documentNorm === 0 ? 0 : (s0 + s1 + s2 + s3) / Math.sqrt(normA * documentNorm);
    }
  }
  return scores;
}
