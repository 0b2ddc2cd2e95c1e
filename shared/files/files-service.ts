import { createHash, randomBytes } from 'node:crypto';
import { RerankError, invalidRequest } from '../core/rerank-error.js';
import type { QuotaHold, QuotaLedger } from '../quota/quota-ledger.js';
import { FileNotFoundError, FileTooLargeError } from './file-errors.js';
import type { FileLimits } from './file-limits.js';
import { partTooLargeError } from './part-too-large-error.js';
import { FileQuota, fileHold, fileHoldId, uploadHoldId, derivedHoldPrefix } from './file-quota.js';
import {
  UPLOADABLE_PURPOSES,
  type ByteRange,
  type FilePage,
  type FilePurpose,
  type FileRecord,
  type FileStore,
  type FileWriter,
} from './file-store.js';
import { UploadStateError, type UploadPart, type UploadRecord, type UploadStore } from './upload-store.js';

export interface NewUpload {
  readonly filename: string;
  readonly purpose: string;
  readonly bytes: number;
  readonly mimeType: string;
}

export interface FileListQuery {
  readonly after?: string;
  readonly limit: number;
  readonly purpose?: FilePurpose;
  readonly order?: 'asc' | 'desc';
}

/** What a caller gets back when it reads a file: its record and its bytes, streamed. */
export interface FileContent {
  readonly record: FileRecord;
  readonly bytes: AsyncIterable<Uint8Array>;
  /** The slice `bytes` holds, when not the whole file. */
  readonly range?: ByteRange;
}

const newUploadId = (): string => `upload_${randomBytes(12).toString('hex')}`;
const newPartId = (): string => `part_${randomBytes(12).toString('hex')}`;
/** Part ids are `part_` + 24 hex characters; anything far longer is not one (and is not echoed back in an error). */
const MAX_PART_ID_LENGTH = 64;
const MD5_HEX = /^[0-9a-f]{32}$/i;
/** `type/subtype` and optional parameters, in printable ASCII (RFC 6838 names, RFC 9110 parameters). */
const MIME_TYPE = /^[A-Za-z0-9][\w!#$&^.+-]*\/[\w!#$&^.+-]+(?:[ \t]*;[\x20-\x7e]*)?$/;

export interface FilesServiceOptions {
  /** The per-key ledger the quotas are reserved on (files, stored bytes, pending uploads). */
  readonly quota: QuotaLedger;
  readonly uploads?: UploadStore;
  readonly now?: () => number;
}

/**
 * The Files and Uploads APIs' rules over a FileStore (and an UploadStore for uploads): ownership (another key's file
 * or upload is a 404, never a 403 that would confirm it exists), purposes, sizes and per-key quotas. Bytes stream
 * through; nothing here holds a whole file.
 *
 * Quotas are reserved on the QuotaLedger BEFORE anything is stored and released when it goes (delete, cancel, expiry,
 * a failed write): reading usage and then writing let parallel requests all pass one check (50 files kept under a
 * limit of 40). A file takes `file:<id>`; an upload takes its announced bytes at create (file-quota.ts).
 */
export class FilesService {
  readonly #files: FileStore;
  readonly #uploads: UploadStore | undefined;
  readonly #limits: FileLimits;
  readonly #quota: FileQuota;
  readonly #now: () => number;

  constructor(files: FileStore, limits: FileLimits, options: FilesServiceOptions) {
    this.#files = files;
    this.#uploads = options.uploads;
    this.#limits = limits;
    this.#now = options.now ?? (() => Math.floor(Date.now() / 1000));
    this.#quota = new FileQuota(options.quota, limits, this.#now);
  }

  /** Whether `/v1/uploads` is served (it needs an UploadStore). */
  get uploadsEnabled(): boolean {
    return this.#uploads !== undefined;
  }

  get limits(): FileLimits {
    return this.#limits;
  }

  /**
   * Stores an uploaded file of `size` bytes (the form's part, already read whole); `expiresAfterSeconds` shortens its
   * retention (OpenAI's `expires_after`). The file and its size are reserved first, so the quota holds under
   * parallel uploads; a stream longer than `size` is refused as it passes it.
   */
  async create(
    ownerKeyId: string,
    file: { readonly filename: string; readonly purpose: string; readonly size: number; readonly expiresAfterSeconds?: number },
    bytes: AsyncIterable<Uint8Array>,
  ): Promise<FileRecord> {
    const purpose = this.#uploadablePurpose(file.purpose);
    this.#checkFilename(file.filename);
    if (!Number.isSafeInteger(file.size) || file.size < 0) throw invalidRequest('the file size is not known', 'file');
    if (file.size > this.#limits.maxFileBytes) throw fileTooLargeError(this.#limits.maxFileBytes);
    const expiresAt = this.#now() + Math.min(file.expiresAfterSeconds ?? this.#limits.retentionSeconds, this.#limits.retentionSeconds);
    return this.#quota.storeHeld(
      ownerKeyId,
      { files: 1, stored_bytes: file.size },
      fileHold,
      (id) => this.#files.delete(id),
      async () => {
        const writer = await this.#files.openWriter({ ownerKeyId, filename: file.filename, purpose, maxBytes: file.size, expiresAt });
        return this.#writeAll(writer, bytes);
      },
    );
  }

  async find(ownerKeyId: string, id: string): Promise<FileRecord> {
    const record = await this.#files.get(id);
    if (record === undefined || record.ownerKeyId !== ownerKeyId || record.purpose === 'upload_part') {
      throw new RerankError('not_found', `no file '${id}' (files are visible only to the key that uploaded them)`, { param: 'file_id' });
    }
    return record;
  }

  list(ownerKeyId: string, query: FileListQuery): Promise<FilePage> {
    // The store skips upload parts while paging (filtering its page here would leave `limit=1` empty behind a part);
    // asked for them by purpose, there are none: parts are pieces of an upload, not files.
    if (query.purpose === 'upload_part') return Promise.resolve({ files: [], hasMore: false });
    return this.#files.list(ownerKeyId, query);
  }

  /** The file's bytes, or the slice `range(size)` picks (undefined: all of them). */
  async content(ownerKeyId: string, id: string, range?: (size: number) => ByteRange | undefined): Promise<FileContent> {
    const record = await this.find(ownerKeyId, id);
    const slice = range?.(record.bytes);
    return { record, bytes: this.#files.read(record.id, slice), ...(slice ? { range: slice } : {}) };
  }

  async delete(ownerKeyId: string, id: string): Promise<FileRecord> {
    const record = await this.find(ownerKeyId, id);
    if (await this.#files.delete(record.id)) {
      await this.#quota.release(ownerKeyId, fileHoldId(record.id));
      // Its derived objects (a corpus' stored shards) went with it: so do their holds.
      await this.#quota.releaseWhere(ownerKeyId, derivedHoldPrefix(record.id));
    }
    return record;
  }

  async createUpload(ownerKeyId: string, upload: NewUpload): Promise<UploadRecord> {
    const store = this.#uploadStore();
    const purpose = this.#uploadablePurpose(upload.purpose);
    this.#checkFilename(upload.filename);
    this.#checkMimeType(upload.mimeType);
    if (!Number.isSafeInteger(upload.bytes) || upload.bytes < 1 || upload.bytes > this.#limits.maxFileBytes) {
      throw new RerankError(
        'payload_too_large',
        `bytes must be an integer from 1 to ${this.#limits.maxFileBytes}, the most one file holds: split the data over several files (each batch line names one corpus file)`,
        { param: 'bytes' },
      );
    }
    const now = this.#now();
    const record: UploadRecord = {
      id: newUploadId(),
      ownerKeyId,
      filename: upload.filename,
      purpose,
      bytes: upload.bytes,
      mimeType: upload.mimeType,
      createdAt: now,
      expiresAt: now + this.#limits.uploadWindowSeconds,
      status: 'pending',
      parts: [],
    };
    // The pending upload, the file it will become and the bytes it announced, at once: its parts and its
    // completion then never find the quota full, and parallel creates cannot pass it.
    const hold: QuotaHold = {
      id: uploadHoldId(record.id),
      amounts: { pending_uploads: 1, files: 1, stored_bytes: record.bytes },
      expiresAt: record.expiresAt,
    };
    await this.#quota.reserve(ownerKeyId, hold);
    try {
      await store.create(record);
    } catch (error) {
      await this.#quota.release(ownerKeyId, hold.id);
      throw error;
    }
    return record;
  }

  async findUpload(ownerKeyId: string, id: string): Promise<UploadRecord> {
    const upload = await this.#uploadStore().get(id);
    if (upload === undefined || upload.ownerKeyId !== ownerKeyId) {
      throw new RerankError('not_found', `no upload '${id}' (uploads are visible only to the key that created them)`, {
        param: 'upload_id',
      });
    }
    if (upload.status === 'pending' && upload.expiresAt <= this.#now()) {
      // Past its hour an upload is over; its parts and its reservation go with it.
      if (await this.#uploadStore().end(id, 'expired')) await this.#quota.release(ownerKeyId, uploadHoldId(id));
      await this.#dropParts(ownerKeyId, upload.parts);
      return { ...upload, status: 'expired' };
    }
    return upload;
  }

  /**
   * Stores one part; a part over the limit is refused before a byte is kept beyond it. Its bytes are inside what the
   * upload reserved (the store refuses, atomically, a part that would carry the parts past the announced bytes);
   * the part is a stored file, so it takes a file on the ledger while it is kept.
   */
  async addPart(ownerKeyId: string, uploadId: string, bytes: AsyncIterable<Uint8Array>): Promise<UploadPart> {
    const upload = this.#pending(await this.findUpload(ownerKeyId, uploadId));
    if (upload.parts.length >= this.#limits.maxPartsPerUpload) {
      throw invalidRequest(`an upload takes at most ${this.#limits.maxPartsPerUpload} parts`, 'data');
    }
    const partHold = (record: FileRecord): QuotaHold => ({ id: fileHoldId(record.id), amounts: { files: 1 }, expiresAt: upload.expiresAt });
    const stored = await this.#quota.storeHeld(
      ownerKeyId,
      { files: 1 },
      partHold,
      (id) => this.#files.delete(id),
      async () => {
        const writer = await this.#files.openWriter({
          ownerKeyId,
          filename: `${upload.id}.part`,
          purpose: 'upload_part',
          maxBytes: this.#limits.maxPartBytes,
          expiresAt: upload.expiresAt,
        });
        return this.#writeAll(writer, bytes, 'data');
      },
    );
    const part: UploadPart = { id: newPartId(), fileId: stored.id, bytes: stored.bytes, createdAt: this.#now() };
    try {
      await this.#uploadStore().addPart(upload.id, part, this.#limits.maxPartsPerUpload);
    } catch (error) {
      await this.#dropParts(ownerKeyId, [part]);
      if (error instanceof UploadStateError) throw this.#stateError(upload, error);
      throw error;
    }
    return part;
  }

  /**
   * Assembles the parts in the order given into one file, streaming each part's bytes, and checks the total size
   * and the optional MD5 of the whole before the file becomes visible.
   */
  async completeUpload(
    ownerKeyId: string,
    uploadId: string,
    partIds: readonly string[],
    md5?: string,
  ): Promise<{ upload: UploadRecord; file: FileRecord }> {
    if (partIds.length > this.#limits.maxPartsPerUpload)
      throw invalidRequest(`part_ids names at most ${this.#limits.maxPartsPerUpload} parts`, 'part_ids');
    if (partIds.some((id) => id.length > MAX_PART_ID_LENGTH))
      throw invalidRequest(`part_ids holds an id longer than ${MAX_PART_ID_LENGTH} characters (ids are part_...)`, 'part_ids');
    if (md5 !== undefined && !MD5_HEX.test(md5)) throw invalidRequest('md5 must be 32 hexadecimal characters', 'md5');
    const upload = this.#pending(await this.findUpload(ownerKeyId, uploadId));
    const byId = new Map(upload.parts.map((p) => [p.id, p]));
    const ordered = partIds.map((id) => {
      const part = byId.get(id);
      if (part === undefined) throw invalidRequest(`part '${id}' is not a part of upload ${upload.id}`, 'part_ids');
      return part;
    });
    if (new Set(partIds).size !== partIds.length) throw invalidRequest('part_ids names a part twice', 'part_ids');
    const total = ordered.reduce((sum, p) => sum + p.bytes, 0);
    if (total !== upload.bytes)
      throw invalidRequest(`the parts add up to ${total} bytes; the upload announced ${upload.bytes}`, 'part_ids');
    const writer = await this.#files.openWriter({
      ownerKeyId,
      filename: upload.filename,
      purpose: upload.purpose,
      maxBytes: this.#limits.maxFileBytes,
      expiresAt: this.#now() + this.#limits.retentionSeconds,
    });
    const hash = createHash('md5');
    const files = this.#files;
    async function* assembled(): AsyncIterable<Uint8Array> {
      for (const part of ordered) {
        for await (const chunk of files.read(part.fileId)) {
          hash.update(chunk);
          yield chunk;
        }
      }
    }
    let file: FileRecord;
    try {
      for await (const chunk of assembled()) await writer.write(chunk);
      if (md5 !== undefined && hash.digest('hex') !== md5.toLowerCase()) {
        throw invalidRequest('md5 does not match the MD5 of the assembled parts', 'md5');
      }
      file = await writer.close();
    } catch (error) {
      await writer.abort();
      if (error instanceof FileNotFoundError) throw new RerankError('conflict', `upload ${upload.id} lost a part; start it again`);
      throw error;
    }
    // The upload's reservation becomes the file's: no counter grows, so this cannot find the quota full. Only if the
    // reservation is gone (the upload's hour ran out meanwhile) is the file reserved anew.
    const held = fileHold(file);
    try {
      await this.#quota.transfer(ownerKeyId, uploadHoldId(upload.id), held);
    } catch (error) {
      await this.#files.delete(file.id);
      throw error;
    }
    if (!(await this.#uploadStore().end(upload.id, 'completed', file.id))) {
      // Cancelled (or completed) while the parts were being assembled: the caller's other request won.
      await this.#files.delete(file.id);
      await this.#quota.release(ownerKeyId, held.id);
      throw new RerankError('conflict', `upload ${upload.id} ended while it was being completed`);
    }
    await this.#dropParts(ownerKeyId, upload.parts);
    return { upload: { ...upload, status: 'completed', fileId: file.id }, file };
  }

  async cancelUpload(ownerKeyId: string, uploadId: string): Promise<UploadRecord> {
    const upload = this.#pending(await this.findUpload(ownerKeyId, uploadId));
    if (!(await this.#uploadStore().end(upload.id, 'cancelled')))
      throw new RerankError('conflict', `upload ${upload.id} is no longer pending`);
    await this.#quota.release(ownerKeyId, uploadHoldId(upload.id));
    await this.#dropParts(ownerKeyId, upload.parts);
    return { ...upload, status: 'cancelled' };
  }

  async #writeAll(writer: FileWriter, bytes: AsyncIterable<Uint8Array>, param = 'file'): Promise<FileRecord> {
    try {
      for await (const chunk of bytes) await writer.write(chunk);
      return await writer.close();
    } catch (error) {
      await writer.abort();
      if (error instanceof FileTooLargeError && param === 'data')
        throw partTooLargeError(`data is larger than ${error.maxBytes} bytes; `, error.maxBytes);
      if (error instanceof FileTooLargeError) throw fileTooLargeError(error.maxBytes);
      throw error;
    }
  }

  #pending(upload: UploadRecord): UploadRecord {
    if (upload.status !== 'pending')
      throw new RerankError('conflict', `upload ${upload.id} is ${upload.status}; only a pending upload takes parts, completes or cancels`);
    return upload;
  }

  #stateError(upload: UploadRecord, error: UploadStateError): RerankError {
    if (error.reason === 'too_many_parts') return invalidRequest(error.message, 'data');
    if (error.reason === 'too_many_bytes')
      return invalidRequest(`the parts would add up to more than the ${upload.bytes} bytes the upload announced`, 'data');
    return new RerankError('conflict', `upload ${upload.id} is no longer pending`);
  }

  async #dropParts(ownerKeyId: string, parts: readonly UploadPart[]): Promise<void> {
    await Promise.all(
      parts.map(async (p) => {
        await this.#files.delete(p.fileId);
        await this.#quota.release(ownerKeyId, fileHoldId(p.fileId));
      }),
    );
  }

  #uploadablePurpose(purpose: string): FilePurpose {
    if (!(UPLOADABLE_PURPOSES as readonly string[]).includes(purpose)) {
      throw invalidRequest(`purpose must be one of ${UPLOADABLE_PURPOSES.join(', ')}`, 'purpose');
    }
    return purpose as FilePurpose;
  }

  /** Bounded before it is stored anywhere: an upload record keeps it (in memory on `npm start`, in an item on AWS). */
  #checkMimeType(mimeType: string): void {
    if (mimeType.length > this.#limits.maxMimeTypeBytes) {
      throw invalidRequest(
        `mime_type must be at most ${this.#limits.maxMimeTypeBytes} characters (this one is ${mimeType.length})`,
        'mime_type',
      );
    }
    if (!MIME_TYPE.test(mimeType))
      throw invalidRequest('mime_type must be a MIME type such as application/jsonl or text/plain', 'mime_type');
  }

  /** Bounded by its UTF-8 size, which is what S3 metadata and object keys count (a character may be 4 bytes). */
  #checkFilename(filename: string): void {
    const bytes = Buffer.byteLength(filename, 'utf8');
    if (bytes === 0 || bytes > this.#limits.maxFilenameBytes) {
      throw invalidRequest(`filename must be 1 to ${this.#limits.maxFilenameBytes} bytes in UTF-8 (this one is ${bytes})`, 'filename');
    }
    if (/\p{Cs}/u.test(filename)) throw invalidRequest('filename is not valid Unicode (it has a lone surrogate)', 'filename');
  }

  #uploadStore(): UploadStore {
    if (this.#uploads === undefined)
      throw new RerankError('not_found', 'uploads are not enabled on this deployment; upload files of up to 6 MB with POST /v1/files');
    return this.#uploads;
  }
}

/** A file past the most one file holds: the way out is several files (a batch line names one corpus; a batch one input). */
const fileTooLargeError = (maxBytes: number): RerankError =>
  new RerankError(
    'payload_too_large',
    `file is larger than ${maxBytes} bytes, the most one file holds: split it over several files (each batch line names one corpus file; a larger batch input goes as several batches)`,
    { param: 'file' },
  );
