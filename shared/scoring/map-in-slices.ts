/** Longest stretch of synchronous work (tokenizing a request's texts) between two yields to the event loop. */
export const SLICE_MS = 20;

/**
 * Maps `items` in order, yielding to the event loop whenever SLICE_MS of work has passed, so /health and other
 * requests are answered while a large request is being prepared; past `signal` (a request's deadline) it stops at
 * the next yield. For an iterator whose `next()` does the work (a generator), `fn` may be the identity.
 */
export async function mapInSlices<T, R>(items: Iterable<T>, fn: (item: T) => R, signal?: AbortSignal): Promise<R[]> {
  const results: R[] = [];
  let since = performance.now();
  for (const item of items) {
    results.push(fn(item));
    if (performance.now() - since > SLICE_MS) {
      await new Promise((resolve) => setImmediate(resolve));
      signal?.throwIfAborted();
      since = performance.now();
    }
  }
  return results;
}
