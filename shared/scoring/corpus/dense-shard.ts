/** Sum of squares of one fp32 row, accumulated in float64 in index order (as cosine() does). */
function squaredNorm(data: Float32Array, start: number, dimensions: number): number {
  let sum = 0;
  for (let i = 0; i < dimensions; i++) {
    const x = data[start + i]!;
    sum += x * x;
  }
  return sum;
}

/**
 * cosine(query q, document d) for every query of a group and every row of a shard's fp32 vectors, in one pass over
 * the rows (each row is read once for the whole group): result[q][d]. Products and sums are float64 in index order,
 * exactly the bi-encoder's cosine(), so a stored score equals the synchronous one; 0 when either vector is all zeros.
 */
export function shardCosines(queries: readonly Float32Array[], data: Float32Array, dimensions: number): Float64Array[] {
  const count = dimensions === 0 ? 0 : data.length / dimensions;
  const queryNorms = queries.map((q) => squaredNorm(q, 0, dimensions));
  const scores = queries.map(() => new Float64Array(count));
  for (let d = 0; d < count; d++) {
    const start = d * dimensions;
    const documentNorm = squaredNorm(data, start, dimensions);
    for (let q = 0; q < queries.length; q++) {
      const query = queries[q]!;
      let dot = 0;
      for (let i = 0; i < dimensions; i++) dot += query[i]! * data[start + i]!;
      const normA = queryNorms[q]!;
      scores[q]![d] = normA === 0 || documentNorm === 0 ? 0 : dot / Math.sqrt(normA * documentNorm);
    }
  }
  return scores;
}
