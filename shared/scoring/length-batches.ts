/** Limits of one ONNX run. Padded tokens = rows x longest row, so both limits matter. */
export interface BatchLimits {
  /** Max pairs per run. */
  readonly batchSize: number;
  /** Max padded tokens (rows x longest row) per run; bounds memory and per-run latency. */
  readonly maxBatchTokens: number;
  /**
   * Max attention scores per head per run (rows x longest row^2; default unbounded). A run materializes that many
   * scores for every head of every layer and runs the mask add and softmax over them: past the CPU caches those
   * memory-bound passes dominate (8 pairs of 512 tokens: 8 x 12 heads x 512^2 floats = 100 MB a layer), so long pairs
   * run alone while short ones still share a run (bench/cpu-forms.md: ~1.9x the 8-pair batches' speed).
   */
  readonly maxBatchScores?: number;
}

/** How a request's batches will be executed: how many run at once, and the model width for the cost estimate. */
export interface BatchSchedule extends BatchLimits {
  /** Batches that run at the same time (inference workers); 1 = one after another. */
  readonly parallelism: number;
  /** Hidden size of the encoder (384 for MiniLM-L6, 128 for TinyBERT-L2); weighs attention against the dense layers. */
  readonly hiddenSize?: number;
  /**
   * Whether a pair's score is independent of its batch mates. False for dynamically quantized graphs
   * (DynamicQuantizeLinear picks one activation scale per run, over every row and the padding): re-cutting
   * their batches would move scores by ~1e-3, so the schedule then only reorders the plain length batches.
   */
  readonly batchInvariant: boolean;
}

const DEFAULT_HIDDEN_SIZE = 384;
/** At least this many batches per worker when a request is small enough to be split (see scheduleBatches). */
const SPLIT_PER_WORKER = 2;

/**
 * Estimated compute of one padded batch, in "token units". Per token, a BERT layer does ~24 h^2
 * multiply-adds in its dense layers and ~4 h x width in attention (QK^T and attention x V), so a
 * row costs width x (1 + width / 6h): attention is quadratic in length, and a 512-token batch costs
 * more than its token count says (x1.22 for h=384, x1.67 for h=128).
 */
export function batchCost(rows: number, width: number, hiddenSize: number = DEFAULT_HIDDEN_SIZE): number {
  return rows * width * (1 + width / (6 * hiddenSize));
}

/**
 * Length-aware batching: sort pair indices by token length and cut consecutive runs, so each batch is
 * padded only to its own longest pair (similar lengths together waste little padding). Returns batches of
 * original indices; callers write results back by index, which restores input order.
 * A single pair longer than maxBatchTokens still gets its own batch (it is already truncated to the model).
 * `maxBatchCost` (default unbounded) additionally caps the estimated cost (batchCost) of one batch.
 */
export function lengthBatches(
  lengths: readonly number[],
  limits: BatchLimits & { readonly maxBatchCost?: number; readonly hiddenSize?: number },
): number[][] {
  const order = lengths.map((_, index) => index).sort((a, b) => lengths[a]! - lengths[b]! || a - b);
  const maxCost = limits.maxBatchCost ?? Number.POSITIVE_INFINITY;
  const batches: number[][] = [];
  let current: number[] = [];
  for (const index of order) {
    // Ascending order: this pair is the longest of the batch if it joins.
    const rows = current.length + 1;
    const width = lengths[index]!;
    const full =
      current.length >= limits.batchSize ||
      rows * width > limits.maxBatchTokens ||
      rows * width * width > (limits.maxBatchScores ?? Number.POSITIVE_INFINITY) ||
      batchCost(rows, width, limits.hiddenSize) > maxCost;
    if (current.length > 0 && full) {
      batches.push(current);
      current = [];
    }
    current.push(index);
  }
  if (current.length > 0) batches.push(current);
  return batches;
}

/**
 * The batches of one request in the order they should start: costliest first (longest-processing-time
 * first), so with several workers pulling from one queue the long batches do not end up as the tail that
 * one worker runs while the others idle. With parallelism > 1 and a batch-invariant graph, a batch's cost
 * is also capped at half of the request's share per worker (total / (SPLIT_PER_WORKER x parallelism), never
 * below one pair): small requests split across every worker (latency) and long pairs come in smaller
 * batches (a finer tail). Otherwise the batches are exactly lengthBatches' (same rows, same padding, same
 * scores), only in another order.
 */
export function scheduleBatches(lengths: readonly number[], schedule: BatchSchedule): number[][] {
  const hiddenSize = schedule.hiddenSize ?? DEFAULT_HIDDEN_SIZE;
  let maxBatchCost = Number.POSITIVE_INFINITY;
  if (schedule.parallelism > 1 && schedule.batchInvariant && lengths.length > 1) {
    const total = lengths.reduce((sum, n) => sum + batchCost(1, n, hiddenSize), 0);
    maxBatchCost = total / (SPLIT_PER_WORKER * schedule.parallelism);
  }
  const batches = lengthBatches(lengths, { ...schedule, hiddenSize, maxBatchCost });
  const cost = (batch: number[]): number => batchCost(batch.length, lengths[batch[batch.length - 1]!]!, hiddenSize);
  // Stable on ties (Array.prototype.sort is stable): equal-cost batches keep length order.
  return batches
    .map((batch) => ({ batch, cost: cost(batch) }))
    .sort((a, b) => b.cost - a.cost)
    .map((entry) => entry.batch);
}
