/**
 * Calls `fn` on every item with at most `limit` calls in flight, starting them in order: the one
 * bounded-concurrency loop (chunk sends, page writes, inference batches). Rejects with the first failure;
 * calls already started still run to their end.
 */
export async function forEachBounded<T>(items: readonly T[], limit: number, fn: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      await fn(items[index] as T, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(Math.max(1, limit), items.length) }, worker));
}
