import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { QuotaExceededError, type QuotaLedger } from '../../shared/quota/quota-ledger.js';

const freshKey = (): string => `quota-${randomUUID().slice(0, 8)}`;
const refusal = (error: unknown) => (error instanceof QuotaExceededError ? { counter: error.counter, limit: error.limit } : error);

/** What every QuotaLedger adapter must do (in memory, DynamoDB Local); every test uses fresh key ids. */
export function describeQuotaLedgerContract(name: string, make: () => QuotaLedger): void {
  describe(`QuotaLedger contract: ${name}`, () => {
    it('takes holds up to each limit, all or nothing, and a release gives back exactly what was held', async () => {
      const ledger = make();
      const key = freshKey();
      const limits = { files: 2, stored_bytes: 100 };
      expect(await ledger.reserve(key, { id: 'file:a', amounts: { files: 1, stored_bytes: 60 } }, limits)).toBe(true);
      // Bytes would pass (60 + 41 > 100): nothing is taken, not even the file count.
      expect(
        refusal(await ledger.reserve(key, { id: 'file:b', amounts: { files: 1, stored_bytes: 41 } }, limits).catch((e: unknown) => e)),
      ).toEqual({ counter: 'stored_bytes', limit: 100 });
      expect(await ledger.usage(key)).toMatchObject({ files: 1, stored_bytes: 60 });
      expect(await ledger.reserve(key, { id: 'file:b', amounts: { files: 1, stored_bytes: 40 } }, limits)).toBe(true);
      expect(refusal(await ledger.reserve(key, { id: 'file:c', amounts: { files: 1 } }, limits).catch((e: unknown) => e))).toEqual({
        counter: 'files',
        limit: 2,
      });
      expect(await ledger.release(key, 'file:a')).toBe(true);
      expect(await ledger.release(key, 'file:a')).toBe(false);
      expect(await ledger.usage(key)).toMatchObject({ files: 1, stored_bytes: 40, pending_uploads: 0 });
      // Another key has its own counters.
      expect(await ledger.usage(freshKey())).toMatchObject({ files: 0, stored_bytes: 0 });
    });

    it('counts a hold id once: a retried reserve changes nothing', async () => {
      const ledger = make();
      const key = freshKey();
      expect(await ledger.reserve(key, { id: 'upload:x', amounts: { pending_uploads: 1 } }, { pending_uploads: 5 })).toBe(true);
      expect(await ledger.reserve(key, { id: 'upload:x', amounts: { pending_uploads: 1 } }, { pending_uploads: 5 })).toBe(false);
      expect((await ledger.usage(key)).pending_uploads).toBe(1);
    });

    it('replaces a hold charging only the difference, checked where it grows', async () => {
      const ledger = make();
      const key = freshKey();
      const limits = { files: 3, stored_bytes: 100, pending_uploads: 1 };
      await ledger.reserve(key, { id: 'upload:u', amounts: { pending_uploads: 1, files: 1, stored_bytes: 90 } }, limits);
      // The upload becomes its file: pending goes down, files and bytes stay; no limit is in the way.
      expect(await ledger.replace(key, 'upload:u', { id: 'file:f', amounts: { files: 1, stored_bytes: 90 } }, limits)).toBe(true);
      expect(await ledger.usage(key)).toMatchObject({ files: 1, stored_bytes: 90, pending_uploads: 0 });
      expect(await ledger.replace(key, 'upload:u', { id: 'file:g', amounts: { files: 1 } }, limits)).toBe(false);
      // Growing past a limit is refused and leaves the old hold.
      expect(
        refusal(
          await ledger.replace(key, 'file:f', { id: 'file:f2', amounts: { files: 1, stored_bytes: 101 } }, limits).catch((e: unknown) => e),
        ),
      ).toEqual({ counter: 'stored_bytes', limit: 100 });
      expect(await ledger.replace(key, 'file:f', { id: 'file:f', amounts: { files: 1, stored_bytes: 100 } }, limits)).toBe(true);
      expect(await ledger.usage(key)).toMatchObject({ files: 1, stored_bytes: 100 });
      expect(await ledger.release(key, 'file:f')).toBe(true);
      expect(await ledger.usage(key)).toMatchObject({ files: 0, stored_bytes: 0 });
    });

    it('lets exactly the limit through when 30 reserves race for it', async () => {
      const ledger = make();
      const key = freshKey();
      const outcomes = await Promise.allSettled(
        Array.from({ length: 30 }, (_, i) =>
          ledger.reserve(key, { id: `file:${i}`, amounts: { files: 1, stored_bytes: 10 } }, { files: 40, stored_bytes: 75 }),
        ),
      );
      expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(7);
      for (const o of outcomes) if (o.status === 'rejected') expect(o.reason).toBeInstanceOf(QuotaExceededError);
      expect(await ledger.usage(key)).toMatchObject({ files: 7, stored_bytes: 70 });
      await Promise.all(Array.from({ length: 30 }, (_, i) => ledger.release(key, `file:${i}`)));
      expect(await ledger.usage(key)).toMatchObject({ files: 0, stored_bytes: 0 });
    });

    it('releases what expired by itself, and only that', async () => {
      const ledger = make();
      const key = freshKey();
      await ledger.reserve(key, { id: 'upload:old', amounts: { pending_uploads: 1 }, expiresAt: 1_000 }, {});
      await ledger.reserve(key, { id: 'upload:new', amounts: { pending_uploads: 1 }, expiresAt: 3_000 }, {});
      await ledger.reserve(key, { id: 'file:kept', amounts: { files: 1 } }, {});
      expect(await ledger.releaseExpired(key, 2_000)).toBe(1);
      expect(await ledger.usage(key)).toMatchObject({ pending_uploads: 1, files: 1 });
      expect(await ledger.release(key, 'upload:old')).toBe(false);
    });

    it("releases every hold under a prefix (a deleted file's derived objects), and only those", async () => {
      const ledger = make();
      const key = freshKey();
      await ledger.reserve(key, { id: 'derived:f1:shard-a', amounts: { stored_bytes: 100 } }, {});
      await ledger.reserve(key, { id: 'derived:f1:shard-b', amounts: { stored_bytes: 50 } }, {});
      await ledger.reserve(key, { id: 'derived:f10:shard-a', amounts: { stored_bytes: 7 } }, {});
      await ledger.reserve(key, { id: 'file:f1', amounts: { files: 1, stored_bytes: 1 } }, {});
      expect(await ledger.releaseWhere(key, 'derived:f1:')).toBe(2);
      expect(await ledger.usage(key)).toMatchObject({ files: 1, stored_bytes: 8 });
      expect(await ledger.releaseWhere(key, 'derived:f1:')).toBe(0);
    });

    it('refuses amounts that are not non-negative integers, and unknown counters', async () => {
      const ledger = make();
      await expect(ledger.reserve(freshKey(), { id: 'x', amounts: { files: -1 } }, {})).rejects.toThrow(RangeError);
      await expect(ledger.reserve(freshKey(), { id: 'x', amounts: { files: 1.5 } }, {})).rejects.toThrow(RangeError);
      await expect(ledger.reserve(freshKey(), { id: 'x', amounts: { bogus: 1 } as never }, {})).rejects.toThrow(RangeError);
    });
  });
}
