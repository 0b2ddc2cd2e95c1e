import {
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  NoSuchKey,
  NotFound,
  PutObjectCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import { FileNotFoundError } from '../../files/file-errors.js';
import type { ByteRange, FilePage, FilePurpose, FileRecord, FileStore, FileUsage, FileWriter, NewFile } from '../../files/file-store.js';
import { contentKey, fileIdOfIndexKey, ownerIndexKey, ownerIndexPrefix, parseUsageKey, usageKey, usagePrefix, type ListOrder } from './s3-file-keys.js';
import { fromObjectMetadata, toObjectMetadata } from './s3-file-metadata.js';
import { MIN_S3_PART_BYTES, S3MultipartWriter } from './s3-multipart-writer.js';

export interface S3FileStoreOptions {
  /** Bytes per multipart part (at least 5 MiB, S3's minimum): a writer holds one part in memory. Default 8 MiB. */
  readonly partBytes?: number;
  /** Epoch seconds; injected so expiry is testable. */
  readonly now?: () => number;
}

const ORDERS: readonly ListOrder[] = ['asc', 'desc'];
/** Ids the store hands out: OpenAI's `file-` prefix and 24 hex characters, never a caller's text. */
const newFileId = (): string => `file-${randomBytes(12).toString('hex')}`;
const isMissing = (error: unknown): boolean => error instanceof NoSuchKey || error instanceof NotFound;

/**
 * FileStore on one S3 bucket (block public access, encryption and lifecycle expiry come from the CDK stack).
 * The bytes are one object per file with its record as user metadata; listing a key's files reads two small
 * index objects per file, so no database is needed beside the bucket.
 */
export class S3FileStore implements FileStore {
  private readonly partBytes: number;
  private readonly now: () => number;

  constructor(
    private readonly client: S3Client,
    private readonly bucket: string,
    options: S3FileStoreOptions = {},
  ) {
    this.partBytes = Math.max(options.partBytes ?? 8 * 1024 * 1024, MIN_S3_PART_BYTES);
    this.now = options.now ?? (() => Math.floor(Date.now() / 1000));
  }

  async openWriter(file: NewFile): Promise<FileWriter> {
    const id = newFileId();
    const record = { id, ownerKeyId: file.ownerKeyId, filename: file.filename, purpose: file.purpose, createdAt: this.now(), expiresAt: file.expiresAt };
    const target = {
      client: this.client,
      bucket: this.bucket,
      key: contentKey(id),
      metadata: toObjectMetadata(record),
      maxBytes: file.maxBytes,
      partBytes: this.partBytes,
    };
    return new S3MultipartWriter(target, async (bytes, version) => {
      // The file becomes listable (and counts against its key's quotas) only once its bytes are complete.
      const markers = [...ORDERS.map((order) => ownerIndexKey(file.ownerKeyId, order, record.createdAt, id)), usageKey(file.ownerKeyId, id, bytes, record.expiresAt)];
      await Promise.all(markers.map((Key) => this.client.send(new PutObjectCommand({ Bucket: this.bucket, Key, Body: new Uint8Array(0), ContentLength: 0 }))));
      return { ...record, ...(record.expiresAt === undefined ? {} : { expiresAt: record.expiresAt }), bytes, version };
    });
  }

  async get(id: string): Promise<FileRecord | undefined> {
    if (!/^file-[0-9a-f]{24}$/.test(id)) return undefined;
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: contentKey(id) }));
      const record = fromObjectMetadata(id, head.Metadata, head.ContentLength ?? 0, (head.VersionId ?? head.ETag ?? '').replaceAll('"', ''));
      return record !== undefined && !this.expired(record) ? record : undefined;
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  }

  async list(ownerKeyId: string, page: { readonly after?: string; readonly limit: number; readonly purpose?: FilePurpose; readonly order?: ListOrder }): Promise<FilePage> {
    const order = page.order ?? 'desc';
    const after = page.after === undefined ? undefined : await this.get(page.after);
    const startAfter = after !== undefined && after.ownerKeyId === ownerKeyId ? ownerIndexKey(ownerKeyId, order, after.createdAt, after.id) : undefined;
    const files: FileRecord[] = [];
    let token: string | undefined;
    do {
      const listed = await this.client.send(
        new ListObjectsV2Command({
          Bucket: this.bucket,
          Prefix: ownerIndexPrefix(ownerKeyId, order),
          ...(token === undefined ? { StartAfter: startAfter } : { ContinuationToken: token }),
          MaxKeys: Math.min(1000, page.limit + 1),
        }),
      );
      for (const entry of listed.Contents ?? []) {
        const record = await this.get(fileIdOfIndexKey(entry.Key ?? ''));
        if (record === undefined || record.ownerKeyId !== ownerKeyId) continue;
        if (page.purpose !== undefined && record.purpose !== page.purpose) continue;
        files.push(record);
        if (files.length > page.limit) return { files: files.slice(0, page.limit), hasMore: true };
      }
      token = listed.IsTruncated === true ? listed.NextContinuationToken : undefined;
    } while (token !== undefined);
    return { files, hasMore: false };
  }

  async *read(id: string, range?: ByteRange): AsyncIterable<Uint8Array> {
    if (range !== undefined && range.end <= range.start) return;
    let object;
    try {
      object = await this.client.send(
        new GetObjectCommand({
          Bucket: this.bucket,
          Key: contentKey(id),
          ...(range === undefined ? {} : { Range: `bytes=${range.start}-${range.end - 1}` }),
        }),
      );
    } catch (error) {
      if (isMissing(error)) throw new FileNotFoundError(id, { cause: error });
      throw error;
    }
    const body = object.Body as Readable | undefined;
    const record = fromObjectMetadata(id, object.Metadata, 0, '');
    if (record === undefined || this.expired(record)) {
      body?.destroy();
      throw new FileNotFoundError(id);
    }
    if (body !== undefined) yield* body as AsyncIterable<Uint8Array>;
  }

  async delete(id: string): Promise<boolean> {
    const record = await this.get(id);
    if (record === undefined) return false;
    const keys = [
      contentKey(id),
      ...ORDERS.map((order) => ownerIndexKey(record.ownerKeyId, order, record.createdAt, id)),
      usageKey(record.ownerKeyId, id, record.bytes, record.expiresAt),
    ];
    await this.client.send(new DeleteObjectsCommand({ Bucket: this.bucket, Delete: { Objects: keys.map((Key) => ({ Key })), Quiet: true } }));
    return true;
  }

  /** Files and bytes a key keeps: one listing call per 1,000 of its files; expired ones (the lifecycle rule's) do not count. */
  async usage(ownerKeyId: string): Promise<FileUsage> {
    const now = this.now();
    let files = 0;
    let bytes = 0;
    let token: string | undefined;
    do {
      const listed = await this.client.send(new ListObjectsV2Command({ Bucket: this.bucket, Prefix: usagePrefix(ownerKeyId), ContinuationToken: token }));
      for (const entry of listed.Contents ?? []) {
        const usage = parseUsageKey(entry.Key ?? '');
        if (usage === undefined || (usage.expiresAt !== 0 && usage.expiresAt <= now)) continue;
        files += 1;
        bytes += usage.bytes;
      }
      token = listed.IsTruncated === true ? listed.NextContinuationToken : undefined;
    } while (token !== undefined);
    return { files, bytes };
  }

  /** A short-lived GET URL for the file's bytes, so a client downloads from S3 instead of through the API's 6 MB cap. */
  async presignedReadUrl(id: string, expiresInSeconds: number): Promise<string | undefined> {
    const record = await this.get(id);
    if (record === undefined) return undefined;
    const command = new GetObjectCommand({
      Bucket: this.bucket,
      Key: contentKey(id),
      ResponseContentDisposition: `attachment; filename*=UTF-8''${encodeURIComponent(record.filename)}`,
    });
    return getSignedUrl(this.client, command, { expiresIn: expiresInSeconds });
  }

  private expired(record: FileRecord): boolean {
    return record.expiresAt !== undefined && record.expiresAt <= this.now();
  }
}
