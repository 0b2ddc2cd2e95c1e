/**
 * Greedy, order-preserving grouping under two caps (entry count and summed size), as SendMessageBatch requires.
 * An item larger than maxBytes on its own still gets a batch of one; the caller rejects such items earlier.
 */
export function groupIntoBatches<T>(items: readonly T[], maxCount: number, maxBytes: number, sizeOf: (item: T) => number): T[][] {
  const batches: T[][] = [];
  let current: T[] = [];
  let currentBytes = 0;
  for (const item of items) {
    const size = sizeOf(item);
    if (current.length > 0 && (current.length >= maxCount || currentBytes + size > maxBytes)) {
      batches.push(current);
      current = [];
      currentBytes = 0;
    }
    current.push(item);
    currentBytes += size;
  }
  if (current.length > 0) batches.push(current);
  return batches;
}
