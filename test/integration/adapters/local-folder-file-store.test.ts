import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LocalFolderFileStore } from '../../../shared/adapters/local/local-folder-file-store.js';
import { FileNotFoundError, FileTooLargeError } from '../../../shared/files/file-errors.js';
import type { FileStore } from '../../../shared/files/file-store.js';

/** The local-folder FileStore of `npm start`, on a real temporary folder. */
let dir: string;
let clock: { now: number };
let store: LocalFolderFileStore;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'local-file-store-'));
  clock = { now: 1_800_000_000 };
  store = new LocalFolderFileStore(dir, { now: () => clock.now });
});

afterEach(() => rmSync(dir, { recursive: true, force: true }));

async function put(s: FileStore, owner: string, text: string, extra: { expiresAt?: number; maxBytes?: number } = {}) {
  const writer = await s.openWriter({
    ownerKeyId: owner,
    filename: 'f.jsonl',
    purpose: 'batch',
    maxBytes: extra.maxBytes ?? 1 << 20,
    ...(extra.expiresAt ? { expiresAt: extra.expiresAt } : {}),
  });
  for (let at = 0; at < text.length; at += 5) await writer.write(Buffer.from(text.slice(at, at + 5)));
  return writer.close();
}

async function text(s: FileStore, id: string, range?: { start: number; end: number }): Promise<string> {
  const parts: Buffer[] = [];
  for await (const chunk of s.read(id, range)) parts.push(Buffer.from(chunk));
  return Buffer.concat(parts).toString('utf8');
}

describe('LocalFolderFileStore', () => {
  it('writes in pieces, reads whole and by byte range, and records size and owner', async () => {
    const record = await put(store, 'owner-a', 'line one\nline two\n');
    expect(record).toMatchObject({ ownerKeyId: 'owner-a', filename: 'f.jsonl', purpose: 'batch', bytes: 18, createdAt: clock.now });
    expect(record.id).toMatch(/^file-[0-9a-f]{24}$/);
    expect(await text(store, record.id)).toBe('line one\nline two\n');
    expect(await text(store, record.id, { start: 9, end: 17 })).toBe('line two');
    expect(await text(store, record.id, { start: 4, end: 4 })).toBe('');
    expect(await store.get(record.id)).toEqual(record);
  });

  it('writes a multi-MB file under back-pressure without leaving listeners behind (no MaxListenersExceededWarning)', async () => {
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on('warning', onWarning);
    try {
      const writer = await store.openWriter({ ownerKeyId: 'owner-a', filename: 'big.jsonl', purpose: 'batch', maxBytes: 8 << 20 });
      // 64 KiB chunks past the stream's 16 KiB high-water mark: every write waits for 'drain', 128 waits in all.
      const chunk = Buffer.alloc(64 * 1024, 'a');
      for (let i = 0; i < 128; i++) await writer.write(chunk);
      const record = await writer.close();
      expect(record.bytes).toBe(8 << 20);
      await new Promise((resolve) => setImmediate(resolve)); // warnings are emitted on a later tick
    } finally {
      process.off('warning', onWarning);
    }
    expect(warnings.map((w) => w.name)).not.toContain('MaxListenersExceededWarning');
  });

  it('shows nothing until close, and an aborted writer leaves no file behind', async () => {
    const writer = await store.openWriter({ ownerKeyId: 'a', filename: 'x', purpose: 'batch', maxBytes: 100 });
    await writer.write(Buffer.from('partial'));
    expect((await store.list('a', { limit: 10 })).files).toEqual([]);
    await writer.abort();
    expect(readdirSync(join(dir, 'content'))).toEqual([]);
  });

  it('refuses the write that passes maxBytes, before keeping it', async () => {
    const writer = await store.openWriter({ ownerKeyId: 'a', filename: 'x', purpose: 'batch', maxBytes: 8 });
    await writer.write(Buffer.from('12345'));
    await expect(writer.write(Buffer.from('6789'))).rejects.toBeInstanceOf(FileTooLargeError);
    await writer.abort();
    expect(await store.usage('a')).toEqual({ files: 0, bytes: 0 });
  });

  it("lists a key's files newest first (or oldest first), by page, and never another key's", async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      clock.now += 10;
      ids.push((await put(store, 'owner-a', `file ${i}`)).id);
    }
    await put(store, 'owner-b', 'not yours');
    const first = await store.list('owner-a', { limit: 2 });
    expect(first.files.map((f) => f.id)).toEqual([ids[4], ids[3]]);
    expect(first.hasMore).toBe(true);
    const rest = await store.list('owner-a', { limit: 10, after: ids[3] });
    expect(rest.files.map((f) => f.id)).toEqual([ids[2], ids[1], ids[0]]);
    expect(rest.hasMore).toBe(false);
    expect((await store.list('owner-a', { limit: 1, order: 'asc' })).files.map((f) => f.id)).toEqual([ids[0]]);
    expect((await store.list('owner-a', { limit: 10, purpose: 'user_data' })).files).toEqual([]);
    expect(await store.usage('owner-a')).toEqual({ files: 5, bytes: 30 });
  });

  it('deletes: the file is gone for get, read, list and usage', async () => {
    const record = await put(store, 'a', 'bytes');
    expect(await store.delete(record.id)).toBe(true);
    expect(await store.get(record.id)).toBeUndefined();
    await expect(text(store, record.id)).rejects.toBeInstanceOf(FileNotFoundError);
    expect((await store.list('a', { limit: 10 })).files).toEqual([]);
    expect(await store.delete(record.id)).toBe(false);
  });

  it('hides files past expiresAt and deletes them in a sweep', async () => {
    const expiring = await put(store, 'a', 'old', { expiresAt: clock.now + 60 });
    const kept = await put(store, 'a', 'new');
    clock.now += 61;
    expect(await store.get(expiring.id)).toBeUndefined();
    expect(await store.deleteExpired()).toBe(1);
    expect(existsSync(join(dir, 'content', expiring.id))).toBe(false);
    expect(await store.get(kept.id)).toBeDefined();
  });

  it("removes a file's derived objects in the sweep when it expires, and those a write left after its delete", async () => {
    const expiring = await put(store, 'a', 'corpus', { expiresAt: clock.now + 60 });
    const deleted = await put(store, 'a', 'corpus');
    const kept = await put(store, 'a', 'corpus');
    for (const file of [expiring, deleted, kept]) await store.putDerived(file.id, 'shard-0', Buffer.from('shard'));
    expect(await store.delete(deleted.id)).toBe(true);
    // A shard write that passed its file check before the delete lands after it.
    mkdirSync(join(dir, 'derived', deleted.id), { recursive: true });
    writeFileSync(join(dir, 'derived', deleted.id, 'shard-1'), 'late');
    clock.now += 61;
    expect(await store.deleteExpired()).toBe(1);
    expect(readdirSync(join(dir, 'derived'))).toEqual([kept.id]);
    expect(Buffer.from((await store.readDerived(kept.id, 'shard-0'))!).toString()).toBe('shard');
  });

  it('never turns an id into a path: traversal and malformed ids find nothing', async () => {
    await put(store, 'a', 'secret');
    for (const id of ['../records/x', 'file-../../etc/passwd', '/etc/passwd', 'file-0123', '']) {
      expect(await store.get(id)).toBeUndefined();
      await expect(text(store, id)).rejects.toBeInstanceOf(FileNotFoundError);
      expect(await store.delete(id)).toBe(false);
    }
  });
});
