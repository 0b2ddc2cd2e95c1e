export interface BackoffOptions {
  /** First delay between polls. Default 250 ms. */
  readonly initialDelayMs?: number;
  /** Delays grow by `factor` up to this. Default 5000 ms. */
  readonly maxDelayMs?: number;
  /** Default 2. */
  readonly factor?: number;
  /** [0,1) source for the jitter; tests pin it. */
  readonly random?: () => number;
}

/**
 * Exponential backoff with "equal jitter": attempt n waits between half and all of
 * min(max, initial * factor^n), so many clients polling the same job service spread out while each
 * still backs off.
 */
export function pollDelayMs(attempt: number, options: BackoffOptions = {}): number {
  const { initialDelayMs = 250, maxDelayMs = 5000, factor = 2, random = Math.random } = options;
  const ceiling = Math.min(maxDelayMs, initialDelayMs * factor ** Math.max(0, attempt));
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

/** A sleep that an AbortSignal cuts short, rejecting with the signal's reason. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason as Error);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason as Error);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
