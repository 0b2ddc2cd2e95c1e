export interface RateDecision {
  readonly allowed: boolean;
  /** Seconds until the window that refused this request ends (0 when allowed). */
  readonly retryAfterSeconds: number;
  /** Requests left in the current window after this one. */
  readonly remaining: number;
}

/**
 * Requests per key in fixed one-minute windows (aligned to the epoch minute). Adapters: DynamoDB (one
 * conditional ADD per request) and in-memory; both pass test/contract/rate-limiter.contract.ts.
 */
export interface RateLimiter {
  /** Counts one request unless the window already has `limitPerMinute`; `now` is epoch seconds. */
  consume(keyId: string, limitPerMinute: number, now: number): Promise<RateDecision>;
}

export const RATE_WINDOW_SECONDS = 60;

export const windowStartOf = (now: number): number => Math.floor(now / RATE_WINDOW_SECONDS) * RATE_WINDOW_SECONDS;

export const retryAfterOf = (now: number): number => Math.max(1, windowStartOf(now) + RATE_WINDOW_SECONDS - Math.floor(now));

export function checkPositiveLimit(name: string, value: number): void {
  if (!Number.isSafeInteger(value) || value < 1) throw new RangeError(`${name} must be a positive integer, got ${value}`);
}
