import {
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
import { checkDerivedObjectName, isDerivedObjectName } from '../../files/derived-object-name.js';
import type { ByteRange, FilePage, FilePurpose, FileRecord, FileStore, FileUsage, FileWriter, NewFile } from '../../files/file-store.js';
import { deleteKeys } from './s3-delete-keys.js';
import { deleteDerivedObjects, sweepDueDerived } from './s3-derived-sweep.js';
import {
  contentKey,
  derivedDueKey,
  derivedKey,
  markerKeys,
  ownerIndexCursor,
  ownerIndexPrefix,
  parseOwnerIndexKey,
  parseUsageKey,
  usagePrefix,
  type IndexedFile,
  type ListOrder,
} from './s3-file-keys.js';
import { fromObjectMetadata, toObjectMetadata } from './s3-file-metadata.js';
import { MIN_S3_PART_BYTES, S3MultipartWriter } from './s3-multipart-writer.js';

export interface S3FileStoreOptions {
  /** Bytes per multipart part (at least 5 MiB, S3's minimum): a writer holds one part in memory. Default 8 MiB. */
  readonly partBytes?: number;
  /** Epoch seconds; injected so expiry is testable. */
  readonly now?: () => number;
  /**
   * The bucket's lifecycle expiry in seconds (RERANK_FILE_RETENTION_DAYS): a file without an `expiresAt` of its own goes
   * then, and the objects derived from it are due with it. Without it such a file's derived objects go with its delete.
   */
  readonly retentionSeconds?: number;
}

/** A listing page asks S3 for at most this many keys (its own maximum) once it has had to skip entries. */
const MAX_KEYS_PER_CALL = 1000;
/** Ids the store hands out: OpenAI's `file-` prefix and 24 hex characters, never a caller's text. */
const newFileId = (): string => `file-${randomBytes(12).toString('hex')}`;
const isMissing = (error: unknown): boolean => error instanceof NoSuchKey || error instanceof NotFound;

/**
 * FileStore on one S3 bucket (block public access, encryption and lifecycle expiry come from the CDK stack).
 * The bytes are one object per file with its record as user metadata; empty index objects whose keys carry the
 * record list a key's files (one ListObjectsV2 per page) and count its usage, so no database is needed beside the
 * bucket. Bytes are written first and index objects after (undone on failure); deletes run the other way round.
 */
export class S3FileStore implements FileStore {
  readonly #client: S3Client;
  readonly #bucket: string;
  readonly #partBytes: number;
  readonly #now: () => number;
  readonly #retentionSeconds: number | undefined;

  constructor(client: S3Client, bucket: string, options: S3FileStoreOptions = {}) {
    this.#client = client;
    this.#bucket = bucket;
    this.#partBytes = Math.max(options.partBytes ?? 8 * 1024 * 1024, MIN_S3_PART_BYTES);
    this.#now = options.now ?? (() => Math.floor(Date.now() / 1000));
    this.#retentionSeconds = options.retentionSeconds;
  }

  async openWriter(file: NewFile): Promise<FileWriter> {
    const id = newFileId();
    const record = {
      id,
      ownerKeyId: file.ownerKeyId,
      filename: file.filename,
      purpose: file.purpose,
      createdAt: this.#now(),
      expiresAt: file.expiresAt,
    };
    const target = {
      id,
      client: this.#client,
      bucket: this.#bucket,
      key: contentKey(id),
      metadata: toObjectMetadata(record),
      maxBytes: file.maxBytes,
      partBytes: this.#partBytes,
    };
    return new S3MultipartWriter(target, async (bytes, version) => {
      // The bytes are in (the id is still unknown to anyone); the usage and index objects make the file counted and
      // listed. If any of them fails, every object of the file is removed, so a failed request leaves nothing a
      // listing shows or a quota counts, and the client's retry is the only copy.
      const file: IndexedFile = { ...record, ...(record.expiresAt === undefined ? {} : { expiresAt: record.expiresAt }), bytes };
      const markers = markerKeys(file);
      const puts = await Promise.allSettled(
        markers.map((Key) =>
          this.#client.send(new PutObjectCommand({ Bucket: this.#bucket, Key, Body: new Uint8Array(0), ContentLength: 0 })),
        ),
      );
      const failed = puts.find((put) => put.status === 'rejected');
      if (failed === undefined) return { ...file, version };
      const written = markers.filter((_, i) => puts[i]?.status === 'fulfilled');
      await deleteKeys(this.#client, this.#bucket, [...written, contentKey(id)]).catch((undo: unknown) => {
        throw new AggregateError(
          [failed.reason, undo],
          `file ${id}: writing its index objects failed and so did removing what was written`,
        );
      });
      throw failed.reason;
    });
  }

  async get(id: string): Promise<FileRecord | undefined> {
    if (!/^file-[0-9a-f]{24}$/.test(id)) return undefined;
    try {
      const head = await this.#client.send(new HeadObjectCommand({ Bucket: this.#bucket, Key: contentKey(id) }));
      const record = fromObjectMetadata(
        id,
        head.Metadata,
        head.ContentLength ?? 0,
        (head.VersionId ?? head.ETag ?? '').replaceAll('"', ''),
      );
      return record !== undefined && !this.#expired(record) ? record : undefined;
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  }

  /**
   * One ListObjectsV2 per page in the common case: every field a listing answers is in the index key, so no
   * HeadObject per file. Entries of another purpose (upload parts unless asked for) and expired ones are skipped
   * while paging, so a page is never short because of them; `hasMore` comes from one entry read past the page.
   */
  async list(
    ownerKeyId: string,
    page: { readonly after?: string; readonly limit: number; readonly purpose?: FilePurpose; readonly order?: ListOrder },
  ): Promise<FilePage> {
    const order = page.order ?? 'desc';
    const after = page.after === undefined ? undefined : await this.get(page.after);
    const startAfter =
      after !== undefined && after.ownerKeyId === ownerKeyId ? ownerIndexCursor(ownerKeyId, order, after.createdAt, after.id) : undefined;
    const files: IndexedFile[] = [];
    let token: string | undefined;
    let maxKeys = Math.min(MAX_KEYS_PER_CALL, page.limit + 1);
    do {
      const listed = await this.#client.send(
        new ListObjectsV2Command({
          Bucket: this.#bucket,
          Prefix: ownerIndexPrefix(ownerKeyId, order),
          ...(token === undefined ? { StartAfter: startAfter } : { ContinuationToken: token }),
          MaxKeys: maxKeys,
        }),
      );
      for (const entry of listed.Contents ?? []) {
        const file = parseOwnerIndexKey(entry.Key ?? '', ownerKeyId, order);
        if (file === undefined || this.#expired(file)) continue;
        if (page.purpose === undefined ? file.purpose === 'upload_part' : file.purpose !== page.purpose) continue;
        files.push(file);
        if (files.length > page.limit) return { files: files.slice(0, page.limit), hasMore: true };
      }
      token = listed.IsTruncated === true ? listed.NextContinuationToken : undefined;
      maxKeys = MAX_KEYS_PER_CALL;
    } while (token !== undefined);
    return { files, hasMore: false };
  }

  async *read(id: string, range?: ByteRange): AsyncIterable<Uint8Array> {
    if (range !== undefined && range.end <= range.start) return;
    let object;
    try {
      object = await this.#client.send(
        new GetObjectCommand({
          Bucket: this.#bucket,
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
    if (record === undefined || this.#expired(record)) {
      body?.destroy();
      throw new FileNotFoundError(id);
    }
    if (body !== undefined) yield* body as AsyncIterable<Uint8Array>;
  }

  /**
   * The usage and index objects go first, then the bytes, each call checked key by key: a failure leaves the file
   * readable by id, so the client's retry finds it and finishes the delete (bytes first would strand entries that a
   * listing shows and no delete can reach). Derived objects go before all of them, and a due key (now) first of all: a
   * shard whose write raced this delete is removed by the next expiry sweep, not kept until the file's own expiry.
   */
  async delete(id: string): Promise<boolean> {
    const record = await this.get(id);
    if (record === undefined) return false;
    // Nothing is ever derived from an upload's part (a caller cannot name one), and an upload drops many at once.
    if (record.purpose !== 'upload_part') await this.#putEmpty(derivedDueKey(id, this.#now()));
    await deleteDerivedObjects({ client: this.#client, bucket: this.#bucket }, id);
    await deleteKeys(this.#client, this.#bucket, markerKeys(record));
    await deleteKeys(this.#client, this.#bucket, [contentKey(id)]);
    return true;
  }

  /**
   * Derived objects outlive nothing: their due key (the file's expiry) is written before the first of them, so the
   * expiry sweep (deleteExpired) removes them when the file expires, whenever they were written.
   */
  async putDerived(fileId: string, name: string, bytes: Uint8Array): Promise<void> {
    checkDerivedObjectName(name);
    const file = await this.get(fileId);
    if (file === undefined) throw new FileNotFoundError(fileId);
    const dueAt = file.expiresAt ?? (this.#retentionSeconds === undefined ? undefined : file.createdAt + this.#retentionSeconds);
    if (dueAt !== undefined) await this.#putEmpty(derivedDueKey(fileId, dueAt));
    await this.#client.send(
      new PutObjectCommand({ Bucket: this.#bucket, Key: derivedKey(fileId, name), Body: bytes, ContentLength: bytes.byteLength }),
    );
  }

  async readDerived(fileId: string, name: string): Promise<Uint8Array | undefined> {
    if (!isDerivedObjectName(name) || (await this.get(fileId)) === undefined) return undefined;
    try {
      const object = await this.#client.send(new GetObjectCommand({ Bucket: this.#bucket, Key: derivedKey(fileId, name) }));
      return object.Body === undefined ? new Uint8Array(0) : await object.Body.transformToByteArray();
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  }

  /** Files and bytes a key keeps: one listing call per 1,000 of its files; expired ones (the lifecycle rule's) do not count. */
  async usage(ownerKeyId: string): Promise<FileUsage> {
    const now = this.#now();
    let files = 0;
    let bytes = 0;
    let token: string | undefined;
    do {
      const listed = await this.#client.send(
        new ListObjectsV2Command({ Bucket: this.#bucket, Prefix: usagePrefix(ownerKeyId), ContinuationToken: token }),
      );
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
      Bucket: this.#bucket,
      Key: contentKey(id),
      ResponseContentDisposition: `attachment; filename*=UTF-8''${encodeURIComponent(record.filename)}`,
    });
    return getSignedUrl(this.#client, command, { expiresIn: expiresInSeconds });
  }

  /**
   * The derived-object expiry: removes the derived objects of files expired or deleted (up to a page of them per run; the
   * next run goes on). The files themselves are the bucket's lifecycle rule's. Returns the due keys settled.
   */
  deleteExpired(): Promise<number> {
    const isLive = async (fileId: string) => (await this.get(fileId)) !== undefined;
    return sweepDueDerived({ client: this.#client, bucket: this.#bucket }, this.#now(), isLive);
  }

  async #putEmpty(key: string): Promise<void> {
    await this.#client.send(new PutObjectCommand({ Bucket: this.#bucket, Key: key, Body: new Uint8Array(0), ContentLength: 0 }));
  }

  #expired(record: IndexedFile): boolean {
    return record.expiresAt !== undefined && record.expiresAt <= this.#now();
  }
}
