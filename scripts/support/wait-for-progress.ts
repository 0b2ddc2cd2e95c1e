/**
 * Waits on progress, not on a total: a wait sized for an idle machine fails on a loaded one (a CI runner, two cores
 * shared with other suites) and reads slowness as loss. The probe reports whether the work is done and a signature of
 * how far it got; the wait gives up only when the signature has not moved for `stallMs`.
 */
export interface ProgressReading<T> {
  readonly done: boolean;
  /** Anything that changes when work moves: counts of chunks done, messages delivered, lines written. */
  readonly progress: string | number;
  readonly value: T;
}

export interface WaitForProgressOptions {
  /** Give up after this long with no change in `progress`. */
  readonly stallMs: number;
  readonly pollMs?: number;
  /** Names the work in the error: `${what}: nothing moved for ...`. */
  readonly what: string;
}

/** Thrown when nothing moved for `stallMs`; carries the last reading's progress. */
export class StalledError extends Error {
  override readonly name = 'StalledError';
  constructor(
    readonly what: string,
    readonly stallMs: number,
    readonly lastProgress: string | number,
  ) {
    super(`${what}: nothing moved for ${stallMs} ms (last progress: ${lastProgress})`);
  }
}

/** Polls `probe` until it reports done (its value is returned) or its progress stalls (StalledError). */
export async function waitForProgress<T>(probe: () => Promise<ProgressReading<T>>, options: WaitForProgressOptions): Promise<T> {
  const pollMs = options.pollMs ?? 100;
  let last: string | number | undefined;
  let movedAt = performance.now();
  for (;;) {
    const reading = await probe();
    if (reading.done) return reading.value;
    if (reading.progress !== last) {
      last = reading.progress;
      movedAt = performance.now();
    } else if (performance.now() - movedAt > options.stallMs) {
      throw new StalledError(options.what, options.stallMs, reading.progress);
    }
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}

/**
 * The test-runner timeout for a test that waits on progress: only a last resort for a hang the probe cannot see (the
 * probe itself blocking). The progress wait fails first, with what it saw, whenever work stops moving.
 */
export const HANG_CEILING_MS = 900_000;
