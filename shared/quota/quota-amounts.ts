import { QUOTA_COUNTERS, QuotaExceededError, type QuotaAmounts, type QuotaCounter } from './quota-ledger.js';

/** Every counter at 0: what a key with nothing held has. */
export const emptyUsage = (): Record<QuotaCounter, number> =>
  Object.fromEntries(QUOTA_COUNTERS.map((c) => [c, 0])) as Record<QuotaCounter, number>;

/** Checks an amount map (known counters, safe integers, none negative); every adapter refuses the same inputs. */
export function checkAmounts(amounts: QuotaAmounts, what = 'amounts'): void {
  for (const [counter, value] of Object.entries(amounts)) {
    if (!(QUOTA_COUNTERS as readonly string[]).includes(counter)) throw new RangeError(`${what}: unknown quota counter '${counter}'`);
    if (!Number.isSafeInteger(value) || (value as number) < 0)
      throw new RangeError(`${what}: ${counter} must be a non-negative integer, got ${String(value)}`);
  }
}

/** `to - from` per counter, only where it is not 0. */
export function difference(to: QuotaAmounts, from: QuotaAmounts): Partial<Record<QuotaCounter, number>> {
  const delta: Partial<Record<QuotaCounter, number>> = {};
  for (const counter of QUOTA_COUNTERS) {
    const d = (to[counter] ?? 0) - (from[counter] ?? 0);
    if (d !== 0) delta[counter] = d;
  }
  return delta;
}

/** The first counter a change would carry past its limit (only growing counters are checked), else undefined. */
export function overLimit(
  used: Record<QuotaCounter, number>,
  delta: Partial<Record<QuotaCounter, number>>,
  limits: QuotaAmounts,
): QuotaExceededError | undefined {
  for (const counter of QUOTA_COUNTERS) {
    const grows = delta[counter] ?? 0;
    const limit = limits[counter];
    if (grows > 0 && limit !== undefined && used[counter] + grows > limit)
      return new QuotaExceededError(counter, limit, used[counter], grows);
  }
  return undefined;
}
