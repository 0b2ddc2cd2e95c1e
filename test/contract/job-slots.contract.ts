import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { JobSlots } from '../../shared/auth/job-slots.js';

const freshKey = (): string => `k-${randomUUID().slice(0, 8)}`;

/** The one behaviour every JobSlots adapter must have; every test uses fresh key ids. */
export function describeJobSlotsContract(name: string, makeSlots: () => JobSlots | Promise<JobSlots>): void {
  describe(`JobSlots contract: ${name}`, () => {
    it('takes up to max slots, and a release frees one', async () => {
      const slots = await makeSlots();
      const keyId = freshKey();
      expect(await slots.inUse(keyId)).toBe(0);
      expect(await slots.acquire(keyId, 2)).toBe(true);
      expect(await slots.acquire(keyId, 2)).toBe(true);
      expect(await slots.acquire(keyId, 2)).toBe(false);
      expect(await slots.inUse(keyId)).toBe(2);
      await slots.release(keyId);
      expect(await slots.inUse(keyId)).toBe(1);
      expect(await slots.acquire(keyId, 2)).toBe(true);
      expect(await slots.acquire(keyId, 3)).toBe(true);
    });

    it('exactly max of 20 concurrent acquires succeed', async () => {
      const slots = await makeSlots();
      const keyId = freshKey();
      const outcomes = await Promise.all(Array.from({ length: 20 }, () => slots.acquire(keyId, 5)));
      expect(outcomes.filter(Boolean)).toHaveLength(5);
      expect(await slots.inUse(keyId)).toBe(5);
    });

    it('never goes below zero, also under concurrent releases', async () => {
      const slots = await makeSlots();
      const keyId = freshKey();
      await slots.release(keyId);
      expect(await slots.inUse(keyId)).toBe(0);
      await Promise.all([slots.acquire(keyId, 5), slots.acquire(keyId, 5)]);
      await Promise.all(Array.from({ length: 6 }, () => slots.release(keyId)));
      expect(await slots.inUse(keyId)).toBe(0);
      expect(await slots.acquire(keyId, 1)).toBe(true);
      expect(await slots.acquire(keyId, 1)).toBe(false);
    });

    it('keys are counted apart; a max that is not a positive integer is refused', async () => {
      const slots = await makeSlots();
      const [a, b] = [freshKey(), freshKey()];
      expect(await slots.acquire(a, 1)).toBe(true);
      expect(await slots.acquire(b, 1)).toBe(true);
      await expect(slots.acquire(a, 0)).rejects.toThrow(RangeError);
    });
  });
}
