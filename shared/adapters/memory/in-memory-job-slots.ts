import type { JobSlots } from '../../auth/job-slots.js';
import { checkPositiveLimit } from '../../auth/rate-limiter.js';

/** JobSlots for one process (`npm start`), with the DynamoDB adapter's semantics (same contract suite). */
export class InMemoryJobSlots implements JobSlots {
  readonly #taken = new Map<string, number>();

  async acquire(keyId: string, max: number): Promise<boolean> {
    checkPositiveLimit('max', max);
    const taken = this.#taken.get(keyId) ?? 0;
    if (taken >= max) return false;
    this.#taken.set(keyId, taken + 1);
    return true;
  }

  async release(keyId: string): Promise<void> {
    const taken = this.#taken.get(keyId) ?? 0;
    if (taken <= 1) this.#taken.delete(keyId);
    else this.#taken.set(keyId, taken - 1);
  }

  async inUse(keyId: string): Promise<number> {
    return this.#taken.get(keyId) ?? 0;
  }
}
