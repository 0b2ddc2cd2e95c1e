import {
  CreateBucketCommand,
  HeadObjectCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { S3DeleteKeysError } from '../../../shared/adapters/s3/s3-delete-keys.js';
import { MAX_S3_USER_METADATA_BYTES, toObjectMetadata } from '../../../shared/adapters/s3/s3-file-metadata.js';
import { derivedDueKey } from '../../../shared/adapters/s3/s3-file-keys.js';
import { S3FileStore } from '../../../shared/adapters/s3/s3-file-store.js';
import { DEFAULT_FILE_LIMITS } from '../../../shared/files/file-limits.js';
import { MIN_S3_PART_BYTES } from '../../../shared/adapters/s3/s3-multipart-writer.js';
import { FileNotFoundError, FileTooLargeError } from '../../../shared/files/file-errors.js';
import type { FileStore, NewFile } from '../../../shared/files/file-store.js';
import type { EmulatorHandle } from '../../../scripts/emulators/emulator-handle.js';
import { localAwsConfig } from '../../../scripts/emulators/local-aws-config.js';
import { startMotoServer } from '../../../scripts/emulators/start-moto-server.js';

// moto's S3 (the same server as the SQS emulator): real S3 protocol, multipart parts, ranges and presigned URLs.
// A missing python3+moto makes beforeAll throw, so these tests FAIL rather than skip.
const BUCKET = 'rerank-files-test';
let moto: EmulatorHandle | undefined;
let client: S3Client;
let clock = 1_800_000_000;
let store: S3FileStore;

beforeAll(async () => {
  moto = await startMotoServer();
  client = new S3Client({ ...localAwsConfig(moto.endpoint), forcePathStyle: true });
  await client.send(new CreateBucketCommand({ Bucket: BUCKET }));
  store = new S3FileStore(client, BUCKET, { partBytes: MIN_S3_PART_BYTES, now: () => clock });
  probe = probeClient(moto.endpoint);
});

afterAll(async () => {
  client?.destroy();
  probe?.client.destroy();
  await moto?.stop();
});

/**
 * A second client on the same moto whose middleware counts commands and plays S3's answer to a principal whose
 * policy denies the keys `denied` matches: a PutObject of them fails AccessDenied, a DeleteObjects leaves them in
 * place and names them in `Errors` (what S3 does with HTTP 200 to a quiet multi-delete).
 */
function probeClient(endpoint: string) {
  const probeClient = new S3Client({ ...localAwsConfig(endpoint), forcePathStyle: true });
  const state = { client: probeClient, commands: [] as string[], deleteSizes: [] as number[], denied: (_key: string) => false };
  probeClient.middlewareStack.add(
    (next, context) => async (args) => {
      const input = args.input as { Key?: string; Delete?: { Objects?: { Key?: string }[] } };
      state.commands.push(context.commandName ?? '?');
      const accessDenied = () =>
        new S3ServiceException({ name: 'AccessDenied', $fault: 'client', $metadata: { httpStatusCode: 403 }, message: 'Access Denied' });
      if (context.commandName === 'PutObjectCommand' && state.denied(input.Key ?? '')) throw accessDenied();
      if (context.commandName !== 'DeleteObjectsCommand' || input.Delete?.Objects === undefined) return next(args);
      state.deleteSizes.push(input.Delete.Objects.length);
      const refused = input.Delete.Objects.filter((o) => state.denied(o.Key ?? ''));
      input.Delete.Objects = input.Delete.Objects.filter((o) => !state.denied(o.Key ?? ''));
      const result = await next(args);
      const output = result.output as { Errors?: { Key?: string; Code?: string }[] };
      output.Errors = [...(output.Errors ?? []), ...refused.map((o) => ({ Key: o.Key, Code: 'AccessDenied' }))];
      return result;
    },
    { step: 'initialize', name: 'probeS3' },
  );
  return state;
}
let probe: ReturnType<typeof probeClient> | undefined;

async function keysUnder(Prefix: string): Promise<string[]> {
  const listed = await client.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix }));
  return (listed.Contents ?? []).map((c) => c.Key ?? '');
}

const newFile = (overrides: Partial<NewFile> = {}): NewFile => ({
  ownerKeyId: 'key-a',
  filename: 'requests.jsonl',
  purpose: 'batch',
  maxBytes: 64 * 1024 * 1024,
  ...overrides,
});

async function writeFile(target: FileStore, chunks: readonly Uint8Array[], file: Partial<NewFile> = {}) {
  const writer = await target.openWriter(newFile(file));
  for (const chunk of chunks) await writer.write(chunk);
  return writer.close();
}

async function readAll(target: FileStore, id: string, range?: { start: number; end: number }): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const chunk of target.read(id, range)) parts.push(Buffer.from(chunk));
  return Buffer.concat(parts);
}

/** Bytes whose every position is recognisable, so a misplaced part or range shows. */
const patterned = (length: number, seed: number): Buffer => Buffer.from(Array.from({ length }, (_, i) => (i * 31 + seed) % 251));

describe('S3FileStore on moto S3', () => {
  it('writes a small file in one put and reads it back whole and by byte range', async () => {
    const record = await writeFile(store, [Buffer.from('{"a":1}\n'), Buffer.from('{"b":2}\n')], { filename: 'small ünïcode.jsonl' });
    expect(record).toMatchObject({ ownerKeyId: 'key-a', filename: 'small ünïcode.jsonl', purpose: 'batch', bytes: 16, createdAt: clock });
    expect(record.id).toMatch(/^file-[0-9a-f]{24}$/);
    expect(record.version).not.toBe('');
    expect(await store.get(record.id)).toEqual(record);
    expect((await readAll(store, record.id)).toString()).toBe('{"a":1}\n{"b":2}\n');
    expect((await readAll(store, record.id, { start: 8, end: 16 })).toString()).toBe('{"b":2}\n');
    expect(await readAll(store, record.id, { start: 4, end: 4 })).toHaveLength(0);
  });

  it('streams a file larger than one part as a multipart upload, byte for byte', async () => {
    // 11 MiB in 1 MiB writes: two full 5 MiB parts and a 1 MiB last part.
    const chunks = Array.from({ length: 11 }, (_, i) => patterned(1024 * 1024, i));
    const record = await writeFile(store, chunks);
    expect(record.bytes).toBe(11 * 1024 * 1024);
    const whole = await readAll(store, record.id);
    expect(whole.equals(Buffer.concat(chunks))).toBe(true);
    // A range across the first part boundary.
    const start = MIN_S3_PART_BYTES - 10;
    expect((await readAll(store, record.id, { start, end: start + 20 })).equals(whole.subarray(start, start + 20))).toBe(true);
  });

  it('refuses a write past maxBytes without leaving an object or an open multipart upload', async () => {
    const writer = await store.openWriter(newFile({ maxBytes: MIN_S3_PART_BYTES + 100 }));
    await writer.write(patterned(MIN_S3_PART_BYTES, 1));
    await expect(writer.write(patterned(101, 2))).rejects.toBeInstanceOf(FileTooLargeError);
    const uploads = await client.send(new ListMultipartUploadsCommand({ Bucket: BUCKET }));
    expect(uploads.Uploads ?? []).toHaveLength(0);
  });

  it("lists only the owner's files, newest first by default, oldest first on request, in pages, filtered by purpose", async () => {
    const owner = 'key-list';
    const ids: string[] = [];
    for (let i = 0; i < 5; i += 1) {
      clock += 10;
      ids.push((await writeFile(store, [Buffer.from(`line ${i}\n`)], { ownerKeyId: owner, purpose: i === 2 ? 'user_data' : 'batch' })).id);
    }
    await writeFile(store, [Buffer.from('other\n')], { ownerKeyId: 'key-other' });

    const first = await store.list(owner, { limit: 2 });
    expect(first.files.map((f) => f.id)).toEqual([ids[4], ids[3]]);
    expect(first.hasMore).toBe(true);
    const second = await store.list(owner, { limit: 2, after: ids[3] });
    expect(second.files.map((f) => f.id)).toEqual([ids[2], ids[1]]);
    const last = await store.list(owner, { limit: 2, after: ids[1] });
    expect(last).toEqual({ files: [expect.objectContaining({ id: ids[0] })], hasMore: false });

    expect((await store.list(owner, { limit: 10, order: 'asc' })).files.map((f) => f.id)).toEqual(ids);
    expect((await store.list(owner, { limit: 10, purpose: 'user_data' })).files.map((f) => f.id)).toEqual([ids[2]]);
    // Another key's id as the cursor starts from the beginning instead of revealing where that file sorts.
    const foreign = (await store.list('key-other', { limit: 1 })).files[0]!.id;
    expect((await store.list(owner, { limit: 1, after: foreign })).files.map((f) => f.id)).toEqual([ids[4]]);
  });

  it('deletes the bytes, both index entries and the usage entry', async () => {
    const record = await writeFile(store, [Buffer.from('gone\n')], { ownerKeyId: 'key-delete' });
    expect(await store.delete(record.id)).toBe(true);
    expect(await store.delete(record.id)).toBe(false);
    expect(await store.get(record.id)).toBeUndefined();
    await expect(readAll(store, record.id)).rejects.toBeInstanceOf(FileNotFoundError);
    for (const Prefix of ['owners/key-delete/', 'usage/key-delete/']) {
      const left = await client.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix }));
      expect(left.Contents ?? []).toHaveLength(0);
    }
  });

  it("counts a key's files and bytes for its quotas: only its own, only complete, not once deleted or expired", async () => {
    expect(await store.usage('key-usage')).toEqual({ files: 0, bytes: 0 });
    const kept = await writeFile(store, [Buffer.from('12345')], { ownerKeyId: 'key-usage' });
    const deleted = await writeFile(store, [Buffer.from('1234567')], { ownerKeyId: 'key-usage' });
    await writeFile(store, [Buffer.from('123')], { ownerKeyId: 'key-usage', expiresAt: clock + 10 });
    await writeFile(store, [Buffer.from('not mine')], { ownerKeyId: 'key-usage-other' });
    const abandoned = await store.openWriter(newFile({ ownerKeyId: 'key-usage' }));
    await abandoned.write(Buffer.from('never closed'));
    expect(await store.usage('key-usage')).toEqual({ files: 3, bytes: 15 });
    await store.delete(deleted.id);
    clock += 11;
    expect(await store.usage('key-usage')).toEqual({ files: 1, bytes: kept.bytes });
    await abandoned.abort();
  });

  it('hides an expired file from get, list and read', async () => {
    const record = await writeFile(store, [Buffer.from('soon gone\n')], { ownerKeyId: 'key-expiry', expiresAt: clock + 60 });
    expect(await store.get(record.id)).toBeDefined();
    clock += 61;
    expect(await store.get(record.id)).toBeUndefined();
    expect((await store.list('key-expiry', { limit: 10 })).files).toHaveLength(0);
    await expect(readAll(store, record.id)).rejects.toBeInstanceOf(FileNotFoundError);
  });

  it("removes a file's derived objects in the expiry sweep once the file expires, whenever they were written", async () => {
    const corpus = await writeFile(store, [Buffer.from('doc\n')], {
      ownerKeyId: 'key-derived-expiry',
      purpose: 'user_data',
      expiresAt: clock + 60,
    });
    const later = await writeFile(store, [Buffer.from('doc\n')], {
      ownerKeyId: 'key-derived-expiry',
      purpose: 'user_data',
      expiresAt: clock + 600,
    });
    // Written well after the upload (as an analysis is): S3's lifecycle would keep these for its days from now.
    clock += 50;
    await store.putDerived(corpus.id, 'corpus.v1.shard-0', Buffer.from('shard 0'));
    await store.putDerived(corpus.id, 'corpus.v1.shard-1', Buffer.from('shard 1'));
    await store.putDerived(later.id, 'corpus.v1.shard-0', Buffer.from('kept'));
    expect(await keysUnder(`derived/${corpus.id}/`)).toHaveLength(2);
    await store.deleteExpired();
    expect(await keysUnder(`derived/${corpus.id}/`)).toHaveLength(2);
    clock += 11;
    expect(await store.deleteExpired()).toBeGreaterThanOrEqual(1);
    expect(await keysUnder(`derived/${corpus.id}/`)).toEqual([]);
    expect((await keysUnder('derived-due/')).filter((key) => key.endsWith(corpus.id))).toEqual([]);
    // A file not yet expired keeps its derived objects and its due key; a second run changes nothing.
    expect(await keysUnder(`derived/${later.id}/`)).toEqual([`derived/${later.id}/corpus.v1.shard-0`]);
    expect((await keysUnder('derived-due/')).filter((key) => key.endsWith(later.id))).toHaveLength(1);
    await store.deleteExpired();
    expect(Buffer.from((await store.readDerived(later.id, 'corpus.v1.shard-0'))!).toString()).toBe('kept');
  });

  it('removes in the next sweep a derived object written after its file was deleted (a write that raced the delete)', async () => {
    const corpus = await writeFile(store, [Buffer.from('doc\n')], {
      ownerKeyId: 'key-derived-race',
      purpose: 'user_data',
      expiresAt: clock + 3600,
    });
    await store.putDerived(corpus.id, 'corpus.v1.shard-0', Buffer.from('shard'));
    expect(await store.delete(corpus.id)).toBe(true);
    expect(await keysUnder(`derived/${corpus.id}/`)).toEqual([]);
    // The racing write passed its file check before the delete and lands after it.
    await client.send(new PutObjectCommand({ Bucket: BUCKET, Key: `derived/${corpus.id}/corpus.v1.shard-1`, Body: 'late' }));
    expect(await store.deleteExpired()).toBeGreaterThanOrEqual(1);
    expect(await keysUnder(`derived/${corpus.id}/`)).toEqual([]);
    // Its delete's due key is settled; the one due at its expiry stays, harmless, for that run.
    expect((await keysUnder('derived-due/')).filter((key) => key.endsWith(corpus.id))).toEqual([derivedDueKey(corpus.id, clock + 3600)]);
  });

  it("removes more than one page (1,000) of a file's derived objects, a DeleteObjects of at most 1,000 keys each", async () => {
    const corpus = await writeFile(store, [Buffer.from('doc\n')], {
      ownerKeyId: 'key-derived-pages',
      purpose: 'user_data',
      expiresAt: clock + 60,
    });
    await store.putDerived(corpus.id, 'shard-0', Buffer.from('x'));
    const names = Array.from({ length: 1004 }, (_, i) => `derived/${corpus.id}/shard-${i + 1}`);
    for (let at = 0; at < names.length; at += 50) {
      await Promise.all(names.slice(at, at + 50).map((Key) => client.send(new PutObjectCommand({ Bucket: BUCKET, Key, Body: 'x' }))));
    }
    const probed = new S3FileStore(probe!.client, BUCKET, { now: () => clock });
    probe!.deleteSizes.length = 0;
    clock += 61;
    await probed.deleteExpired();
    const left = await client.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: `derived/${corpus.id}/` }));
    expect(left.KeyCount ?? 0).toBe(0);
    expect(probe!.deleteSizes.every((size) => size <= 1000)).toBe(true);
    expect(probe!.deleteSizes.reduce((sum, size) => sum + size, 0)).toBeGreaterThanOrEqual(1005);
  });

  it('answers ids it never issued as missing, never as an S3 key a caller chose', async () => {
    expect(await store.get('../owners/key-a/asc')).toBeUndefined();
    expect(await store.get('file-zz')).toBeUndefined();
    await expect(client.send(new HeadObjectCommand({ Bucket: BUCKET, Key: 'files/../owners' }))).rejects.toThrow();
  });

  it('presigns a short-lived GET that downloads the bytes without credentials', async () => {
    const record = await writeFile(store, [Buffer.from('{"custom_id":"r1"}\n')], { filename: 'out put.jsonl' });
    const url = await store.presignedReadUrl(record.id, 60);
    expect(url).toContain('X-Amz-Expires=60');
    const response = await fetch(url!);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('{"custom_id":"r1"}\n');
    // moto ignores response-content-disposition (S3 honours it): the signed URL must at least carry it.
    expect(new URL(url!).searchParams.get('response-content-disposition')).toBe("attachment; filename*=UTF-8''out%20put.jsonl");
    expect(await store.presignedReadUrl('file-000000000000000000000000', 60)).toBeUndefined();
  });

  it('lists a page in one ListObjectsV2 with no HeadObject per file, and upload parts never leave limit=1 empty', async () => {
    const owner = 'key-parts';
    const probed = new S3FileStore(probe!.client, BUCKET, { now: () => clock });
    clock += 10;
    const file = await writeFile(store, [Buffer.from('input\n')], { ownerKeyId: owner, filename: 'in.jsonl' });
    for (let i = 0; i < 3; i += 1) {
      clock += 10;
      await writeFile(store, [Buffer.from(`part ${i}`)], { ownerKeyId: owner, filename: 'upload_x.part', purpose: 'upload_part' });
    }
    probe!.commands.length = 0;
    const page = await probed.list(owner, { limit: 1 });
    expect(page).toEqual({
      files: [{ id: file.id, ownerKeyId: owner, filename: 'in.jsonl', purpose: 'batch', bytes: 6, createdAt: file.createdAt }],
      hasMore: false,
    });
    expect(probe!.commands.filter((c) => c === 'HeadObjectCommand')).toEqual([]);
    // limit+1 keys first; the three parts skipped make one more call of up to 1,000 keys.
    expect(probe!.commands).toEqual(['ListObjectsV2Command', 'ListObjectsV2Command']);
    expect((await probed.list(owner, { limit: 10, purpose: 'upload_part' })).files).toHaveLength(3);
  });

  it('stores, lists and reads back a filename at the Files API bound (512 UTF-8 bytes) within S3 metadata and key limits', async () => {
    const filename = `${'語'.repeat(170)}ab`;
    expect(Buffer.byteLength(filename)).toBe(DEFAULT_FILE_LIMITS.maxFilenameBytes);
    const owner = 'f'.repeat(64);
    const record = await writeFile(store, [Buffer.from('x')], {
      ownerKeyId: owner,
      filename,
      expiresAt: clock + 30 * 86_400,
      purpose: 'batch_output',
    });
    const metadata = toObjectMetadata({ ...record });
    const metadataBytes = Object.entries(metadata).reduce((sum, [k, v]) => sum + Buffer.byteLength(k) + Buffer.byteLength(v), 0);
    expect(metadataBytes).toBeLessThanOrEqual(MAX_S3_USER_METADATA_BYTES);
    for (const key of [...(await keysUnder(`owners/${owner}/`)), ...(await keysUnder(`usage/${owner}/`))])
      expect(Buffer.byteLength(key)).toBeLessThanOrEqual(1024);
    expect((await store.get(record.id))?.filename).toBe(filename);
    expect((await store.list(owner, { limit: 1 })).files[0]?.filename).toBe(filename);
    // 1,024 three-byte characters (the old bound counted UTF-16 units) are 9,216 bytes: refused before any S3 call.
    expect(() => toObjectMetadata({ ...record, filename: '語'.repeat(1024) })).toThrow(RangeError);
  });

  it('removes every object of a file whose index writes are denied, so nothing is listed, counted or left', async () => {
    const owner = 'key-undo';
    const probed = new S3FileStore(probe!.client, BUCKET, { now: () => clock });
    const contentBefore = await keysUnder('files/');
    probe!.denied = (key) => key.startsWith('usage/');
    try {
      await expect(writeFile(probed, [Buffer.from('retry me\n')], { ownerKeyId: owner })).rejects.toMatchObject({ name: 'AccessDenied' });
    } finally {
      probe!.denied = () => false;
    }
    expect(await keysUnder(`owners/${owner}/`)).toEqual([]);
    expect(await keysUnder(`usage/${owner}/`)).toEqual([]);
    expect(await keysUnder('files/')).toEqual(contentBefore);
    expect(await probed.usage(owner)).toEqual({ files: 0, bytes: 0 });
  });

  it('surfaces the per-key Errors of a quiet DeleteObjects and keeps the file deletable by a retry', async () => {
    const owner = 'key-denied-delete';
    const probed = new S3FileStore(probe!.client, BUCKET, { now: () => clock });
    const record = await writeFile(probed, [Buffer.from('keep\n')], { ownerKeyId: owner });
    probe!.denied = (key) => key.startsWith('usage/');
    try {
      const failure = await probed.delete(record.id).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(S3DeleteKeysError);
      expect((failure as S3DeleteKeysError).failures).toEqual([
        { key: expect.stringMatching(/^usage\/key-denied-delete\//), code: 'AccessDenied' },
      ]);
    } finally {
      probe!.denied = () => false;
    }
    // The bytes go last, so the file is still there for the retry to find and finish.
    expect(await probed.get(record.id)).toBeDefined();
    expect(await probed.delete(record.id)).toBe(true);
    expect(await probed.get(record.id)).toBeUndefined();
    expect(await keysUnder(`usage/${owner}/`)).toEqual([]);
    expect(await keysUnder(`owners/${owner}/`)).toEqual([]);
  });
});
