import { checkAmounts, difference, emptyUsage, overLimit } from '../../quota/quota-amounts.js';
import type { QuotaAmounts, QuotaCounter, QuotaHold, QuotaLedger } from '../../quota/quota-ledger.js';

interface KeyLedger {
  readonly usage: Record<QuotaCounter, number>;
  readonly holds: Map<string, QuotaHold>;
}

/** What a store already holds when the process starts (its files on disk), taken without a limit check. */
export type QuotaSeed = () => Promise<Iterable<{ readonly ownerKeyId: string; readonly hold: QuotaHold }>>;

/**
 * QuotaLedger for one process (`npm start`). Each change is one synchronous check-and-add after the seed is in,
 * so no await sits between reading a counter and moving it: two requests cannot both take the last unit.
 * The counters live in memory; `seed` rebuilds them from what outlives a restart (the local folder's files).
 */
export class InMemoryQuotaLedger implements QuotaLedger {
  readonly #keys = new Map<string, KeyLedger>();
  readonly #seeded: Promise<void>;

  constructor(options: { readonly seed?: QuotaSeed } = {}) {
    const seed = options.seed;
    this.#seeded =
      seed === undefined
        ? Promise.resolve()
        : seed().then((holds) => {
            for (const { ownerKeyId, hold } of holds) this.#apply(this.#key(ownerKeyId), undefined, hold);
          });
  }

  async reserve(ownerKeyId: string, hold: QuotaHold, limits: QuotaAmounts): Promise<boolean> {
    checkAmounts(hold.amounts);
    await this.#seeded;
    const key = this.#key(ownerKeyId);
    if (key.holds.has(hold.id)) return false;
    const refused = overLimit(key.usage, hold.amounts, limits);
    if (refused) throw refused;
    this.#apply(key, undefined, hold);
    return true;
  }

  async replace(ownerKeyId: string, fromId: string, to: QuotaHold, limits: QuotaAmounts): Promise<boolean> {
    checkAmounts(to.amounts);
    await this.#seeded;
    const key = this.#key(ownerKeyId);
    const from = key.holds.get(fromId);
    if (from === undefined || (to.id !== fromId && key.holds.has(to.id))) return false;
    const refused = overLimit(key.usage, difference(to.amounts, from.amounts), limits);
    if (refused) throw refused;
    this.#apply(key, from, to);
    return true;
  }

  async release(ownerKeyId: string, holdId: string): Promise<boolean> {
    await this.#seeded;
    const key = this.#keys.get(ownerKeyId);
    const hold = key?.holds.get(holdId);
    if (key === undefined || hold === undefined) return false;
    this.#apply(key, hold, undefined);
    if (key.holds.size === 0) this.#keys.delete(ownerKeyId);
    return true;
  }

  async releaseWhere(ownerKeyId: string, idPrefix: string): Promise<number> {
    await this.#seeded;
    const key = this.#keys.get(ownerKeyId);
    if (key === undefined) return 0;
    const matching = [...key.holds.keys()].filter((id) => id.startsWith(idPrefix));
    for (const id of matching) await this.release(ownerKeyId, id);
    return matching.length;
  }

  async releaseExpired(ownerKeyId: string, now: number): Promise<number> {
    await this.#seeded;
    const key = this.#keys.get(ownerKeyId);
    if (key === undefined) return 0;
    const expired = [...key.holds.values()].filter((h) => h.expiresAt !== undefined && h.expiresAt <= now);
    for (const hold of expired) await this.release(ownerKeyId, hold.id);
    return expired.length;
  }

  async usage(ownerKeyId: string): Promise<Record<QuotaCounter, number>> {
    await this.#seeded;
    return { ...(this.#keys.get(ownerKeyId)?.usage ?? emptyUsage()) };
  }

  #key(ownerKeyId: string): KeyLedger {
    let key = this.#keys.get(ownerKeyId);
    if (key === undefined) {
      key = { usage: emptyUsage(), holds: new Map() };
      this.#keys.set(ownerKeyId, key);
    }
    return key;
  }

  /** Moves the counters from `from` to `to` (either absent) and swaps the hold; synchronous by design. */
  #apply(key: KeyLedger, from: QuotaHold | undefined, to: QuotaHold | undefined): void {
    for (const [counter, delta] of Object.entries(difference(to?.amounts ?? {}, from?.amounts ?? {})))
      key.usage[counter as QuotaCounter] += delta;
    if (from !== undefined) key.holds.delete(from.id);
    if (to !== undefined) key.holds.set(to.id, to);
  }
}
