import { beforeEach, describe, expect, it } from 'vitest';
import { FileNotFoundError, FileTooLargeError } from '../../shared/files/file-errors.js';
import type { FileStore, NewFile } from '../../shared/files/file-store.js';

/** A store under test on a clock the suite moves (epoch seconds): createdAt, ordering and expiry read it. */
export type FileStoreFactory = (now: () => number) => FileStore | Promise<FileStore>;

const newFile = (overrides: Partial<NewFile> = {}): NewFile => ({
  ownerKeyId: 'key-a',
  filename: 'requests.jsonl',
  purpose: 'batch',
  maxBytes: 1 << 20,
  ...overrides,
});

/** Writes `text` in 5-byte pieces, so a store that keeps only the last write shows. */
async function put(store: FileStore, text: string, file: Partial<NewFile> = {}) {
  const writer = await store.openWriter(newFile(file));
  for (let at = 0; at < text.length; at += 5) await writer.write(Buffer.from(text.slice(at, at + 5)));
  const record = await writer.close();
  // The id the writer gave at its open is the file's.
  expect(record.id).toBe(writer.id);
  return record;
}

async function read(store: FileStore, id: string, range?: { start: number; end: number }): Promise<string> {
  const parts: Buffer[] = [];
  for await (const chunk of store.read(id, range)) parts.push(Buffer.from(chunk));
  return Buffer.concat(parts).toString('utf8');
}

/**
 * What every FileStore does (memory for unit tests, the local folder of `npm start`, S3): the batch engine and
 * the Files API rely on exactly this, whichever store the runtime picked.
 */
export function describeFileStoreContract(name: string, make: FileStoreFactory): void {
  describe(`FileStore contract: ${name}`, () => {
    let clock: number;
    let store: FileStore;

    beforeEach(async () => {
      clock = 1_800_000_000;
      store = await make(() => clock);
    });

    it('writes in pieces, reads back whole and by byte range, and records owner, name, purpose, size and time', async () => {
      const record = await put(store, 'line one\nline two\n', { filename: 'in ünïcode.jsonl' });
      expect(record).toMatchObject({ ownerKeyId: 'key-a', filename: 'in ünïcode.jsonl', purpose: 'batch', bytes: 18, createdAt: clock });
      expect(record.id).toMatch(/^file-[0-9a-f]{24}$/);
      expect(record.version).not.toBe('');
      expect(await store.get(record.id)).toEqual(record);
      expect(await read(store, record.id)).toBe('line one\nline two\n');
      expect(await read(store, record.id, { start: 9, end: 17 })).toBe('line two');
      expect(await read(store, record.id, { start: 4, end: 4 })).toBe('');
    });

    it('shows nothing until close, and an aborted writer leaves no file', async () => {
      const writer = await store.openWriter(newFile({ ownerKeyId: 'key-partial' }));
      await writer.write(Buffer.from('partial'));
      expect((await store.list('key-partial', { limit: 10 })).files).toEqual([]);
      // The id is known from the open, but names nothing a get or a delete can find until the file is closed.
      expect(writer.id).toMatch(/^file-[0-9a-f]{24}$/);
      expect(await store.get(writer.id)).toBeUndefined();
      expect(await store.delete(writer.id)).toBe(false);
      await writer.abort();
      expect((await store.list('key-partial', { limit: 10 })).files).toEqual([]);
      if (store.usage) expect(await store.usage('key-partial')).toEqual({ files: 0, bytes: 0 });
    });

    it('refuses the write that passes maxBytes (FileTooLargeError) and keeps nothing of it', async () => {
      const writer = await store.openWriter(newFile({ ownerKeyId: 'key-big', maxBytes: 8 }));
      await writer.write(Buffer.from('12345'));
      await expect(writer.write(Buffer.from('6789'))).rejects.toBeInstanceOf(FileTooLargeError);
      await writer.abort();
      expect((await store.list('key-big', { limit: 10 })).files).toEqual([]);
      if (store.usage) expect(await store.usage('key-big')).toEqual({ files: 0, bytes: 0 });
    });

    it("lists a key's files newest first (oldest first on request), by page, by purpose, and never another key's", async () => {
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) {
        clock += 10;
        ids.push((await put(store, `file ${i}`, { ownerKeyId: 'key-list', purpose: i === 2 ? 'user_data' : 'batch' })).id);
      }
      await put(store, 'not yours', { ownerKeyId: 'key-other' });
      const first = await store.list('key-list', { limit: 2 });
      expect(first.files.map((f) => f.id)).toEqual([ids[4], ids[3]]);
      expect(first.hasMore).toBe(true);
      const rest = await store.list('key-list', { limit: 10, after: ids[3] });
      expect(rest.files.map((f) => f.id)).toEqual([ids[2], ids[1], ids[0]]);
      expect(rest.hasMore).toBe(false);
      expect((await store.list('key-list', { limit: 10, order: 'asc' })).files.map((f) => f.id)).toEqual(ids);
      expect((await store.list('key-list', { limit: 10, purpose: 'user_data' })).files.map((f) => f.id)).toEqual([ids[2]]);
      if (store.usage) expect(await store.usage('key-list')).toEqual({ files: 5, bytes: 30 });
    });

    it('deletes: the file is gone for get, read and list, and a second delete finds nothing', async () => {
      const record = await put(store, 'bytes', { ownerKeyId: 'key-delete' });
      expect(await store.delete(record.id)).toBe(true);
      expect(await store.get(record.id)).toBeUndefined();
      await expect(read(store, record.id)).rejects.toBeInstanceOf(FileNotFoundError);
      expect((await store.list('key-delete', { limit: 10 })).files).toEqual([]);
      expect(await store.delete(record.id)).toBe(false);
      if (store.usage) expect(await store.usage('key-delete')).toEqual({ files: 0, bytes: 0 });
    });

    it('hides a file past expiresAt from get, list and read, and keeps the others', async () => {
      const expiring = await put(store, 'old', { ownerKeyId: 'key-expiry', expiresAt: clock + 60 });
      const kept = await put(store, 'new', { ownerKeyId: 'key-expiry' });
      expect(await store.get(expiring.id)).toBeDefined();
      clock += 61;
      expect(await store.get(expiring.id)).toBeUndefined();
      expect((await store.list('key-expiry', { limit: 10 })).files.map((f) => f.id)).toEqual([kept.id]);
      await expect(read(store, expiring.id)).rejects.toBeInstanceOf(FileNotFoundError);
      expect(await store.get(kept.id)).toEqual(kept);
    });

    it('keeps objects derived from a file beside it: read back by name, replaced, never listed or counted, deleted with it', async () => {
      const record = await put(store, 'corpus line\n', { ownerKeyId: 'key-derived', purpose: 'user_data' });
      const shard = new Uint8Array(3000).map((_, i) => (i * 7) % 251);
      await store.putDerived(record.id, 'corpus.v1.model-abc.0-1.shard', shard);
      expect(Buffer.from((await store.readDerived(record.id, 'corpus.v1.model-abc.0-1.shard'))!)).toEqual(Buffer.from(shard));
      expect(await store.readDerived(record.id, 'corpus.v1.model-abc.1-1.shard')).toBeUndefined();
      await store.putDerived(record.id, 'corpus.v1.model-abc.0-1.shard', Buffer.from('replaced'));
      expect(Buffer.from((await store.readDerived(record.id, 'corpus.v1.model-abc.0-1.shard'))!).toString()).toBe('replaced');
      // The file itself is unchanged, and its listing and usage count its bytes only.
      expect(await read(store, record.id)).toBe('corpus line\n');
      expect((await store.list('key-derived', { limit: 10 })).files.map((f) => f.id)).toEqual([record.id]);
      if (store.usage) expect(await store.usage('key-derived')).toEqual({ files: 1, bytes: 12 });
      expect(await store.delete(record.id)).toBe(true);
      expect(await store.readDerived(record.id, 'corpus.v1.model-abc.0-1.shard')).toBeUndefined();
      await expect(store.putDerived(record.id, 'corpus.v1.model-abc.0-1.shard', shard)).rejects.toBeInstanceOf(FileNotFoundError);
      // A new file never sees what an earlier one left.
      const next = await put(store, 'corpus line\n', { ownerKeyId: 'key-derived' });
      expect(await store.readDerived(next.id, 'corpus.v1.model-abc.0-1.shard')).toBeUndefined();
    });

    it('refuses derived names that are not one plain segment, and hides derived objects of an expired file', async () => {
      const record = await put(store, 'x', { ownerKeyId: 'key-derived-names', expiresAt: clock + 60 });
      for (const name of ['../escape', 'a/b', '', '.hidden', 'x'.repeat(201), 'sp ace']) {
        await expect(store.putDerived(record.id, name, Buffer.from('no'))).rejects.toBeInstanceOf(RangeError);
        expect(await store.readDerived(record.id, name)).toBeUndefined();
      }
      await store.putDerived(record.id, 'kept', Buffer.from('yes'));
      expect(Buffer.from((await store.readDerived(record.id, 'kept'))!).toString()).toBe('yes');
      clock += 61;
      expect(await store.readDerived(record.id, 'kept')).toBeUndefined();
      await expect(store.putDerived(record.id, 'kept', Buffer.from('late'))).rejects.toBeInstanceOf(FileNotFoundError);
      for (const id of ['../records/x', 'file-000000000000000000000000', '']) expect(await store.readDerived(id, 'kept')).toBeUndefined();
    });

    it('answers ids it never issued as missing: traversal and malformed ids find nothing', async () => {
      await put(store, 'secret');
      for (const id of ['../records/x', 'file-../../etc/passwd', '/etc/passwd', 'file-0123', 'file-000000000000000000000000', '']) {
        expect(await store.get(id)).toBeUndefined();
        await expect(read(store, id)).rejects.toBeInstanceOf(FileNotFoundError);
        expect(await store.delete(id)).toBe(false);
      }
    });
  });
}
