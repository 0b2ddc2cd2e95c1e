/** Limits of one ONNX run. Padded tokens = rows x longest row, so both limits matter. */
export interface BatchLimits {
  /** Max pairs per run. */
  readonly batchSize: number;
  /** Max padded tokens (rows x longest row) per run; bounds memory and per-run latency. */
  readonly maxBatchTokens: number;
}

/**
 * Length-aware batching: sort pair indices by token length and cut consecutive runs, so each batch is
 * padded only to its own longest pair (similar lengths together waste little padding). Returns batches of
 * original indices; callers write results back by index, which restores input order.
 * A single pair longer than maxBatchTokens still gets its own batch (it is already truncated to the model).
 */
export function lengthBatches(lengths: readonly number[], limits: BatchLimits): number[][] {
  const order = lengths.map((_, index) => index).sort((a, b) => lengths[a]! - lengths[b]! || a - b);
  const batches: number[][] = [];
  let current: number[] = [];
  for (const index of order) {
    // Ascending order: this pair is the longest of the batch if it joins.
    const paddedIfAdded = (current.length + 1) * lengths[index]!;
    if (current.length > 0 && (current.length >= limits.batchSize || paddedIfAdded > limits.maxBatchTokens)) {
      batches.push(current);
      current = [];
    }
    current.push(index);
  }
  if (current.length > 0) batches.push(current);
  return batches;
}
