import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { RateLimiter } from '../../shared/auth/rate-limiter.js';

/** A window start near real time: DynamoDB Local deletes items whose TTL has passed within seconds. */
const currentWindow = (): number => Math.floor(Date.now() / 60_000) * 60;
const freshKey = (): string => `k-${randomUUID().slice(0, 8)}`;

/** The one behaviour every RateLimiter adapter must have; every test uses fresh key ids. */
export function describeRateLimiterContract(name: string, makeLimiter: () => RateLimiter | Promise<RateLimiter>): void {
  describe(`RateLimiter contract: ${name}`, () => {
    it('allows `limit` requests in a window, counting remaining down, then refuses until the window ends', async () => {
      const limiter = await makeLimiter();
      const keyId = freshKey();
      const start = currentWindow();
      const decisions = [];
      for (let i = 0; i < 3; i += 1) decisions.push(await limiter.consume(keyId, 3, start + 10 + i));
      expect(decisions).toEqual([
        { allowed: true, retryAfterSeconds: 0, remaining: 2 },
        { allowed: true, retryAfterSeconds: 0, remaining: 1 },
        { allowed: true, retryAfterSeconds: 0, remaining: 0 },
      ]);
      expect(await limiter.consume(keyId, 3, start + 45.5)).toEqual({ allowed: false, retryAfterSeconds: 15, remaining: 0 });
      expect(await limiter.consume(keyId, 3, start + 59.9)).toEqual({ allowed: false, retryAfterSeconds: 1, remaining: 0 });
    });

    it('exactly `limit` of 25 concurrent requests pass', async () => {
      const limiter = await makeLimiter();
      const keyId = freshKey();
      const now = currentWindow() + 5;
      const decisions = await Promise.all(Array.from({ length: 25 }, () => limiter.consume(keyId, 7, now)));
      expect(decisions.filter((d) => d.allowed)).toHaveLength(7);
      expect(
        decisions
          .filter((d) => d.allowed)
          .map((d) => d.remaining)
          .sort((x, y) => x - y),
      ).toEqual([0, 1, 2, 3, 4, 5, 6]);
      expect(decisions.filter((d) => !d.allowed).every((d) => d.retryAfterSeconds === 55)).toBe(true);
    });

    it('the next window starts from zero', async () => {
      const limiter = await makeLimiter();
      const keyId = freshKey();
      const start = currentWindow();
      expect((await limiter.consume(keyId, 1, start + 1)).allowed).toBe(true);
      expect((await limiter.consume(keyId, 1, start + 2)).allowed).toBe(false);
      expect(await limiter.consume(keyId, 1, start + 60)).toEqual({ allowed: true, retryAfterSeconds: 0, remaining: 0 });
      expect((await limiter.consume(keyId, 1, start + 61)).allowed).toBe(false);
    });

    it('keys are counted apart, and a raised limit applies at once', async () => {
      const limiter = await makeLimiter();
      const [a, b] = [freshKey(), freshKey()];
      const now = currentWindow() + 3;
      expect((await limiter.consume(a, 1, now)).allowed).toBe(true);
      expect((await limiter.consume(a, 1, now)).allowed).toBe(false);
      expect((await limiter.consume(b, 1, now)).allowed).toBe(true);
      expect(await limiter.consume(a, 3, now)).toEqual({ allowed: true, retryAfterSeconds: 0, remaining: 1 });
    });

    it('rejects a limit that is not a positive integer', async () => {
      const limiter = await makeLimiter();
      await expect(limiter.consume(freshKey(), 0, currentWindow())).rejects.toThrow(RangeError);
    });
  });
}
