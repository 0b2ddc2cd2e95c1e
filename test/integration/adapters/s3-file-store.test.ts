import { CreateBucketCommand, HeadObjectCommand, ListMultipartUploadsCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { S3FileStore } from '../../../shared/adapters/s3/s3-file-store.js';
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
});

afterAll(async () => {
  client?.destroy();
  await moto?.stop();
});

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

  it('lists only the owner\'s files, newest first by default, oldest first on request, in pages, filtered by purpose', async () => {
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
});
