import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LocalFolderFileStore } from '../../../shared/adapters/local/local-folder-file-store.js';
import { InMemoryUploadStore } from '../../../shared/adapters/memory/in-memory-upload-store.js';
import { InMemoryQuotaLedger } from '../../../shared/adapters/memory/in-memory-quota-ledger.js';
import { localFolderQuotaSeed } from '../../../shared/adapters/local/local-folder-quota-seed.js';
import { RerankError } from '../../../shared/core/rerank-error.js';
import { DEFAULT_FILE_LIMITS, type FileLimits } from '../../../shared/files/file-limits.js';
import { FilesService } from '../../../shared/files/files-service.js';

/** The Files/Uploads rules at their bounds, over the local-folder store on a temporary folder. */
let dir: string;
let clock: { now: number };

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'files-service-'));
  clock = { now: 1_800_000_000 };
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const service = (limits: Partial<FileLimits> = {}) =>
  new FilesService(
    new LocalFolderFileStore(dir, { now: () => clock.now }),
    { ...DEFAULT_FILE_LIMITS, ...limits },
    { uploads: new InMemoryUploadStore(), quota: new InMemoryQuotaLedger(), now: () => clock.now },
  );

async function* bytesOf(text: string): AsyncIterable<Uint8Array> {
  yield Buffer.from(text);
}

const kindOf = (error: unknown) => (error instanceof RerankError ? { kind: error.kind, param: error.param } : error);

describe('FilesService bounds', () => {
  it('refuses the file past the per-key count (429) and past the stored bytes (429), not before', async () => {
    const files = service({ maxFilesPerKey: 2, maxStoredBytesPerKey: 1_000 });
    await files.create('a', { filename: 'one', purpose: 'batch', size: 1 }, bytesOf('x'));
    await files.create('a', { filename: 'two', purpose: 'batch', size: 1 }, bytesOf('x'));
    expect(
      kindOf(await files.create('a', { filename: 'three', purpose: 'batch', size: 1 }, bytesOf('x')).catch((e: unknown) => e)),
    ).toMatchObject({ kind: 'rate_limited' });
    // Another key has its own quota.
    await files.create('b', { filename: 'one', purpose: 'batch', size: 1 }, bytesOf('x'));
    const bytes = service({ maxStoredBytesPerKey: 1_000 });
    await bytes.createUpload('c', { filename: 'u', purpose: 'batch', bytes: 1_000, mimeType: 'text/plain' });
    expect(
      kindOf(
        await bytes.createUpload('c', { filename: 'u', purpose: 'batch', bytes: 1_001, mimeType: 'text/plain' }).catch((e: unknown) => e),
      ),
    ).toMatchObject({ kind: 'rate_limited' });
  });

  it('bounds a file (413 naming file), a filename (400) and the purposes a caller may upload (400)', async () => {
    const files = service({ maxFileBytes: 4, maxFilenameBytes: 8 });
    await files.create('a', { filename: '12345678', purpose: 'user_data', size: 4 }, bytesOf('1234'));
    // The bound is UTF-8 bytes: two three-byte characters fit in 8, three (9 bytes) do not.
    await files.create('a', { filename: '日本', purpose: 'user_data', size: 1 }, bytesOf('1'));
    expect(
      kindOf(await files.create('a', { filename: '日本語', purpose: 'batch', size: 1 }, bytesOf('1')).catch((e: unknown) => e)),
    ).toEqual({ kind: 'invalid_request', param: 'filename' });
    expect(
      kindOf(await files.create('a', { filename: 'a\uD800', purpose: 'batch', size: 1 }, bytesOf('1')).catch((e: unknown) => e)),
    ).toEqual({ kind: 'invalid_request', param: 'filename' });
    expect(
      kindOf(
        await files.createUpload('a', { filename: '日本語', purpose: 'batch', bytes: 1, mimeType: 'text/plain' }).catch((e: unknown) => e),
      ),
    ).toEqual({ kind: 'invalid_request', param: 'filename' });
    expect(
      kindOf(await files.create('a', { filename: 'f', purpose: 'batch', size: 5 }, bytesOf('12345')).catch((e: unknown) => e)),
    ).toEqual({ kind: 'payload_too_large', param: 'file' });
    expect(
      kindOf(await files.create('a', { filename: '123456789', purpose: 'batch', size: 1 }, bytesOf('1')).catch((e: unknown) => e)),
    ).toEqual({ kind: 'invalid_request', param: 'filename' });
    for (const purpose of ['batch_output', 'upload_part', 'fine-tune']) {
      expect(kindOf(await files.create('a', { filename: 'f', purpose, size: 1 }, bytesOf('1')).catch((e: unknown) => e))).toEqual({
        kind: 'invalid_request',
        param: 'purpose',
      });
    }
    expect(
      kindOf(await files.createUpload('a', { filename: 'f', purpose: 'batch', bytes: 5, mimeType: 'text/plain' }).catch((e: unknown) => e)),
    ).toMatchObject({ kind: 'payload_too_large', param: 'bytes' });
  });

  it('lists files, never upload parts: a newer part does not leave limit=1 empty, and parts are not listed by purpose', async () => {
    const files = service();
    const file = await files.create('a', { filename: 'in.jsonl', purpose: 'batch', size: 1 }, bytesOf('x'));
    const upload = await files.createUpload('a', { filename: 'big.jsonl', purpose: 'batch', bytes: 2, mimeType: 'text/plain' });
    clock.now += 1;
    await files.addPart('a', upload.id, bytesOf('1'));
    expect((await files.list('a', { limit: 1 })).files.map((f) => f.id)).toEqual([file.id]);
    expect(await files.list('a', { limit: 10, purpose: 'upload_part' })).toEqual({ files: [], hasMore: false });
  });

  it('caps pending uploads per key (429) and the parts of one upload (400)', async () => {
    const files = service({ maxPendingUploads: 1, maxPartsPerUpload: 2 });
    const upload = await files.createUpload('a', { filename: 'f', purpose: 'batch', bytes: 3, mimeType: 'text/plain' });
    expect(
      kindOf(await files.createUpload('a', { filename: 'g', purpose: 'batch', bytes: 3, mimeType: 'text/plain' }).catch((e: unknown) => e)),
    ).toMatchObject({ kind: 'rate_limited' });
    await files.addPart('a', upload.id, bytesOf('1'));
    await files.addPart('a', upload.id, bytesOf('2'));
    expect(kindOf(await files.addPart('a', upload.id, bytesOf('3')).catch((e: unknown) => e))).toEqual({
      kind: 'invalid_request',
      param: 'data',
    });
  });

  it('ends an upload past its window: expired, its parts gone, and it frees the pending slot', async () => {
    const files = service({ maxPendingUploads: 1, uploadWindowSeconds: 60 });
    const upload = await files.createUpload('a', { filename: 'f', purpose: 'batch', bytes: 2, mimeType: 'text/plain' });
    await files.addPart('a', upload.id, bytesOf('1'));
    clock.now += 61;
    expect((await files.findUpload('a', upload.id)).status).toBe('expired');
    expect(kindOf(await files.addPart('a', upload.id, bytesOf('2')).catch((e: unknown) => e))).toMatchObject({ kind: 'conflict' });
    await files.createUpload('a', { filename: 'g', purpose: 'batch', bytes: 2, mimeType: 'text/plain' });
    expect((await new LocalFolderFileStore(dir, { now: () => clock.now }).usage('a')).files).toBe(0);
  });

  it('gives the quota back when a write fails, when a file expires, and never on a restart', async () => {
    const files = service({ maxFilesPerKey: 1, retentionSeconds: 3_600 });
    // A stream longer than the size the form announced is refused (413), and its reservation released.
    expect(
      kindOf(await files.create('a', { filename: 'f', purpose: 'batch', size: 1 }, bytesOf('12')).catch((e: unknown) => e)),
    ).toMatchObject({ kind: 'payload_too_large' });
    await files.create('a', { filename: 'kept', purpose: 'batch', size: 1 }, bytesOf('x'));
    expect(
      kindOf(await files.create('a', { filename: 'g', purpose: 'batch', size: 1 }, bytesOf('x')).catch((e: unknown) => e)),
    ).toMatchObject({ kind: 'rate_limited' });
    // A restart: a fresh ledger seeded from the folder still counts the kept file.
    const store = new LocalFolderFileStore(dir, { now: () => clock.now });
    const restarted = new FilesService(
      store,
      { ...DEFAULT_FILE_LIMITS, maxFilesPerKey: 1, retentionSeconds: 3_600 },
      {
        uploads: new InMemoryUploadStore(),
        quota: new InMemoryQuotaLedger({ seed: localFolderQuotaSeed(store) }),
        now: () => clock.now,
      },
    );
    expect(
      kindOf(await restarted.create('a', { filename: 'g', purpose: 'batch', size: 1 }, bytesOf('x')).catch((e: unknown) => e)),
    ).toMatchObject({ kind: 'rate_limited' });
    // Past its retention the file is gone by itself, and so is its hold.
    clock.now += 3_601;
    await restarted.create('a', { filename: 'g', purpose: 'batch', size: 1 }, bytesOf('x'));
  });

  it("counts a corpus file's stored analysis after a restart, and gives it back with the file (before: the seed counted the file alone)", async () => {
    const files = service({ maxStoredBytesPerKey: 10_000 });
    const corpus = await files.create('a', { filename: 'corpus.jsonl', purpose: 'batch', size: 4 }, bytesOf('{}\n\n'));
    const store = new LocalFolderFileStore(dir, { now: () => clock.now });
    await store.putDerived(corpus.id, 'shard-0.bin', new Uint8Array(700));
    await store.putDerived(corpus.id, 'shard-1.bin', new Uint8Array(300));
    // A write that never finished is not a stored object.
    writeFileSync(join(dir, 'derived', corpus.id, 'shard-2.bin.0a1b2c.partial'), new Uint8Array(5_000));
    const ledger = new InMemoryQuotaLedger({ seed: localFolderQuotaSeed(store) });
    expect(await ledger.usage('a')).toMatchObject({ files: 1, stored_bytes: 4 + 700 + 300 });
    // Deleting the file gives back what its shards held (the engine releases `derived:<id>:` holds with it).
    const restarted = new FilesService(
      store,
      { ...DEFAULT_FILE_LIMITS, maxStoredBytesPerKey: 10_000 },
      { uploads: new InMemoryUploadStore(), quota: ledger, now: () => clock.now },
    );
    await restarted.delete('a', corpus.id);
    expect(await ledger.usage('a')).toMatchObject({ files: 0, stored_bytes: 0 });
  });
});
