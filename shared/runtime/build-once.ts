/**
 * A per-process value (one per Lambda container) built on first use; a failed build is retried on the next call
 * instead of failing every later request of the container.
 */
export function buildOnce<T>(build: () => Promise<T>): () => Promise<T> {
  let current: Promise<T> | undefined;
  return () => {
    current ??= build().catch((error: unknown) => {
      current = undefined;
      throw error;
    });
    return current;
  };
}
