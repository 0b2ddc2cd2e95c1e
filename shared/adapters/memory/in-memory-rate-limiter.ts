import {
  RATE_WINDOW_SECONDS,
  checkPositiveLimit,
  retryAfterOf,
  windowStartOf,
  type RateDecision,
  type RateLimiter,
} from '../../auth/rate-limiter.js';

/** Windows older than this behind the one in use are dropped, like the DynamoDB items' 2-minute TTL. */
const KEEP_SECONDS = 2 * RATE_WINDOW_SECONDS;

/**
 * RateLimiter for one process (`npm start`), with the DynamoDB adapter's fixed-window semantics (same contract
 * suite): one counter per key and window. Counting is synchronous, so concurrent calls in a process are atomic.
 */
export class InMemoryRateLimiter implements RateLimiter {
  /** keyId -> window start -> requests counted. */
  readonly #counts = new Map<string, Map<number, number>>();

  async consume(keyId: string, limitPerMinute: number, now: number): Promise<RateDecision> {
    checkPositiveLimit('limitPerMinute', limitPerMinute);
    const start = windowStartOf(now);
    let windows = this.#counts.get(keyId);
    if (windows === undefined) this.#counts.set(keyId, (windows = new Map()));
    for (const old of windows.keys()) if (old < start - KEEP_SECONDS) windows.delete(old);
    const count = windows.get(start) ?? 0;
    if (count >= limitPerMinute) return { allowed: false, retryAfterSeconds: retryAfterOf(now), remaining: 0 };
    windows.set(start, count + 1);
    return { allowed: true, retryAfterSeconds: 0, remaining: limitPerMinute - count - 1 };
  }
}
