import { describe, expect, it } from 'vitest';
import { UploadStateError, type UploadRecord, type UploadStore } from '../../shared/files/upload-store.js';

let counter = 0;
const upload = (overrides: Partial<UploadRecord> = {}): UploadRecord => ({
  id: `upload_${process.pid}_${Date.now()}_${counter++}`,
  ownerKeyId: `owner-${process.pid}-${counter}`,
  filename: 'corpus.jsonl',
  purpose: 'batch',
  bytes: 10,
  mimeType: 'application/jsonl',
  createdAt: 1_800_000_000,
  expiresAt: 1_800_003_600,
  status: 'pending',
  parts: [],
  ...overrides,
});
const part = (i: number) => ({
  id: `part_${i}`,
  fileId: `file-${String(i).padStart(24, '0')}`,
  bytes: i + 1,
  createdAt: 1_800_000_000 + i,
});

/** What every UploadStore adapter must do; run against each (in memory, DynamoDB Local). */
export function describeUploadStoreContract(name: string, make: () => UploadStore): void {
  describe(`UploadStore contract: ${name}`, () => {
    it('keeps an upload as created and appends parts in the order they arrive', async () => {
      const store = make();
      const record = upload();
      await store.create(record);
      expect(await store.get(record.id)).toEqual(record);
      await store.addPart(record.id, part(0), 10);
      const after = await store.addPart(record.id, part(1), 10);
      expect(after.parts).toEqual([part(0), part(1)]);
      expect(await store.get('upload_missing')).toBeUndefined();
    });

    it('loses no part when many arrive at once, and refuses the one past the cap', async () => {
      const store = make();
      const record = upload({ bytes: 1_000 });
      await store.create(record);
      const results = await Promise.allSettled(Array.from({ length: 12 }, (_, i) => store.addPart(record.id, part(i), 10)));
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(10);
      const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
      for (const r of refused) expect(r.reason).toMatchObject({ reason: 'too_many_parts' });
      expect((await store.get(record.id))?.parts).toHaveLength(10);
    });

    it('lets parallel parts fill the announced bytes and refuses every part that would pass them', async () => {
      const store = make();
      // 24 parts of 3 bytes race for 20 announced bytes: 6 fit (18 bytes), no seventh may land.
      const record = upload({ bytes: 20 });
      await store.create(record);
      const threeBytes = (i: number) => ({ ...part(i), bytes: 3 });
      const results = await Promise.allSettled(Array.from({ length: 24 }, (_, i) => store.addPart(record.id, threeBytes(i), 100)));
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(6);
      for (const r of results) if (r.status === 'rejected') expect(r.reason).toMatchObject({ reason: 'too_many_bytes' });
      const stored = (await store.get(record.id))?.parts ?? [];
      expect(stored.reduce((sum, p) => sum + p.bytes, 0)).toBe(18);
      // The last 2 bytes still fit.
      await store.addPart(record.id, { ...part(99), bytes: 2 }, 100);
      await expect(store.addPart(record.id, { ...part(100), bytes: 1 }, 100)).rejects.toMatchObject({ reason: 'too_many_bytes' });
    });

    it('ends a pending upload once: a second end, or a part after it, is refused', async () => {
      const store = make();
      const record = upload();
      await store.create(record);
      expect(await store.end(record.id, 'completed', 'file-000000000000000000000001')).toBe(true);
      expect(await store.get(record.id)).toMatchObject({ status: 'completed', fileId: 'file-000000000000000000000001' });
      expect(await store.end(record.id, 'cancelled')).toBe(false);
      await expect(store.addPart(record.id, part(0), 10)).rejects.toBeInstanceOf(UploadStateError);
      await expect(store.addPart(record.id, part(0), 10)).rejects.toMatchObject({ reason: 'not_pending' });
    });

    it("counts a key's pending uploads that have not expired, not another key's or ended ones", async () => {
      const store = make();
      const owner = `owner-count-${counter++}`;
      const a = upload({ ownerKeyId: owner });
      const b = upload({ ownerKeyId: owner });
      const old = upload({ ownerKeyId: owner, expiresAt: 1_700_000_000 });
      await Promise.all([store.create(a), store.create(b), store.create(old), store.create(upload())]);
      expect(await store.pendingCount(owner, 1_800_000_100)).toBe(2);
      await store.end(a.id, 'cancelled');
      expect(await store.pendingCount(owner, 1_800_000_100)).toBe(1);
    });
  });
}
