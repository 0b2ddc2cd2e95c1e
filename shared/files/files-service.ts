import { createHash, randomBytes } from 'node:crypto';
import { RateLimitedError } from '../auth/rate-limited-error.js';
import { RerankError, invalidRequest } from '../core/rerank-error.js';
import { FileNotFoundError, FileTooLargeError } from './file-errors.js';
import type { FileLimits } from './file-limits.js';
import { UPLOADABLE_PURPOSES, type FilePage, type FilePurpose, type FileRecord, type FileStore, type FileWriter } from './file-store.js';
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
}

const newUploadId = (): string => `upload_${randomBytes(12).toString('hex')}`;
const newPartId = (): string => `part_${randomBytes(12).toString('hex')}`;
/** Quota refusals say when to retry: a file is freed by deleting it, so a minute is only a pace. */
const QUOTA_RETRY_SECONDS = 60;

/**
 * The Files and Uploads APIs' rules over a FileStore (and an UploadStore for uploads): ownership (another key's file
 * or upload is a 404, never a 403 that would confirm it exists), purposes, sizes and per-key quotas. Bytes stream
 * through; nothing here holds a whole file.
 */
export class FilesService {
  readonly #files: FileStore;
  readonly #uploads: UploadStore | undefined;
  readonly #limits: FileLimits;
  readonly #now: () => number;

  constructor(files: FileStore, limits: FileLimits, options: { readonly uploads?: UploadStore; readonly now?: () => number } = {}) {
    this.#files = files;
    this.#uploads = options.uploads;
    this.#limits = limits;
    this.#now = options.now ?? (() => Math.floor(Date.now() / 1000));
  }

  /** Whether `/v1/uploads` is served (it needs an UploadStore). */
  get uploadsEnabled(): boolean {
    return this.#uploads !== undefined;
  }

  get limits(): FileLimits {
    return this.#limits;
  }

  /** Stores an uploaded file; `expiresAfterSeconds` shortens its retention (OpenAI's `expires_after`). */
  async create(
    ownerKeyId: string,
    file: { readonly filename: string; readonly purpose: string; readonly expiresAfterSeconds?: number },
    bytes: AsyncIterable<Uint8Array>,
  ): Promise<FileRecord> {
    const purpose = this.#uploadablePurpose(file.purpose);
    this.#checkFilename(file.filename);
    await this.#checkQuota(ownerKeyId, 0);
    const writer = await this.#files.openWriter({
      ownerKeyId,
      filename: file.filename,
      purpose,
      maxBytes: this.#limits.maxFileBytes,
      expiresAt: this.#now() + Math.min(file.expiresAfterSeconds ?? this.#limits.retentionSeconds, this.#limits.retentionSeconds),
    });
    return this.#writeAll(writer, bytes);
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

  async content(ownerKeyId: string, id: string): Promise<FileContent> {
    const record = await this.find(ownerKeyId, id);
    return { record, bytes: this.#files.read(record.id) };
  }

  async delete(ownerKeyId: string, id: string): Promise<FileRecord> {
    const record = await this.find(ownerKeyId, id);
    await this.#files.delete(record.id);
    return record;
  }

  async createUpload(ownerKeyId: string, upload: NewUpload): Promise<UploadRecord> {
    const store = this.#uploadStore();
    const purpose = this.#uploadablePurpose(upload.purpose);
    this.#checkFilename(upload.filename);
    if (!Number.isSafeInteger(upload.bytes) || upload.bytes < 1 || upload.bytes > this.#limits.maxFileBytes) {
      throw new RerankError('payload_too_large', `bytes must be an integer from 1 to ${this.#limits.maxFileBytes}`, { param: 'bytes' });
    }
    await this.#checkQuota(ownerKeyId, upload.bytes);
    const now = this.#now();
    const pending = await store.pendingCount(ownerKeyId, now);
    if (pending >= this.#limits.maxPendingUploads) {
      throw new RateLimitedError(`this key has ${pending} uploads pending (at most ${this.#limits.maxPendingUploads}); complete or cancel one`, QUOTA_RETRY_SECONDS);
    }
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
    await store.create(record);
    return record;
  }

  async findUpload(ownerKeyId: string, id: string): Promise<UploadRecord> {
    const upload = await this.#uploadStore().get(id);
    if (upload === undefined || upload.ownerKeyId !== ownerKeyId) {
      throw new RerankError('not_found', `no upload '${id}' (uploads are visible only to the key that created them)`, { param: 'upload_id' });
    }
    if (upload.status === 'pending' && upload.expiresAt <= this.#now()) {
      // Past its hour an upload is over; its parts go with it.
      await this.#uploadStore().end(id, 'expired');
      await this.#dropParts(upload.parts);
      return { ...upload, status: 'expired' };
    }
    return upload;
  }

  /** Stores one part; a part over the limit is refused before a byte is kept beyond it. */
  async addPart(ownerKeyId: string, uploadId: string, bytes: AsyncIterable<Uint8Array>): Promise<UploadPart> {
    const upload = this.#pending(await this.findUpload(ownerKeyId, uploadId));
    if (upload.parts.length >= this.#limits.maxPartsPerUpload) {
      throw invalidRequest(`an upload takes at most ${this.#limits.maxPartsPerUpload} parts`, 'data');
    }
    const writer = await this.#files.openWriter({
      ownerKeyId,
      filename: `${upload.id}.part`,
      purpose: 'upload_part',
      maxBytes: this.#limits.maxPartBytes,
      expiresAt: upload.expiresAt,
    });
    const stored = await this.#writeAll(writer, bytes, 'data');
    const received = upload.parts.reduce((sum, p) => sum + p.bytes, 0) + stored.bytes;
    const part: UploadPart = { id: newPartId(), fileId: stored.id, bytes: stored.bytes, createdAt: this.#now() };
    if (received > upload.bytes) {
      await this.#files.delete(stored.id);
      throw invalidRequest(`the parts add up to ${received} bytes, more than the ${upload.bytes} the upload announced`, 'data');
    }
    try {
      await this.#uploadStore().addPart(upload.id, part, this.#limits.maxPartsPerUpload);
    } catch (error) {
      await this.#files.delete(stored.id);
      if (error instanceof UploadStateError) throw this.#stateError(upload.id, error);
      throw error;
    }
    return part;
  }

  /**
   * Assembles the parts in the order given into one file, streaming each part's bytes, and checks the total size
   * and the optional MD5 of the whole before the file becomes visible.
   */
  async completeUpload(ownerKeyId: string, uploadId: string, partIds: readonly string[], md5?: string): Promise<{ upload: UploadRecord; file: FileRecord }> {
    const upload = this.#pending(await this.findUpload(ownerKeyId, uploadId));
    const byId = new Map(upload.parts.map((p) => [p.id, p]));
    const ordered = partIds.map((id) => {
      const part = byId.get(id);
      if (part === undefined) throw invalidRequest(`part '${id}' is not a part of upload ${upload.id}`, 'part_ids');
      return part;
    });
    if (new Set(partIds).size !== partIds.length) throw invalidRequest('part_ids names a part twice', 'part_ids');
    const total = ordered.reduce((sum, p) => sum + p.bytes, 0);
    if (total !== upload.bytes) throw invalidRequest(`the parts add up to ${total} bytes; the upload announced ${upload.bytes}`, 'part_ids');
    await this.#checkQuota(ownerKeyId, upload.bytes);
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
    if (!(await this.#uploadStore().end(upload.id, 'completed', file.id))) {
      // Cancelled (or completed) while the parts were being assembled: the caller's other request won.
      await this.#files.delete(file.id);
      throw new RerankError('conflict', `upload ${upload.id} ended while it was being completed`);
    }
    await this.#dropParts(upload.parts);
    return { upload: { ...upload, status: 'completed', fileId: file.id }, file };
  }

  async cancelUpload(ownerKeyId: string, uploadId: string): Promise<UploadRecord> {
    const upload = this.#pending(await this.findUpload(ownerKeyId, uploadId));
    if (!(await this.#uploadStore().end(upload.id, 'cancelled'))) throw new RerankError('conflict', `upload ${upload.id} is no longer pending`);
    await this.#dropParts(upload.parts);
    return { ...upload, status: 'cancelled' };
  }

  async #writeAll(writer: FileWriter, bytes: AsyncIterable<Uint8Array>, param = 'file'): Promise<FileRecord> {
    try {
      for await (const chunk of bytes) await writer.write(chunk);
      return await writer.close();
    } catch (error) {
      await writer.abort();
      if (error instanceof FileTooLargeError) throw new RerankError('payload_too_large', `${param} is larger than ${error.maxBytes} bytes`, { param });
      throw error;
    }
  }

  #pending(upload: UploadRecord): UploadRecord {
    if (upload.status !== 'pending') throw new RerankError('conflict', `upload ${upload.id} is ${upload.status}; only a pending upload takes parts, completes or cancels`);
    return upload;
  }

  #stateError(uploadId: string, error: UploadStateError): RerankError {
    return error.reason === 'too_many_parts' ? invalidRequest(error.message, 'data') : new RerankError('conflict', `upload ${uploadId} is no longer pending`);
  }

  async #dropParts(parts: readonly UploadPart[]): Promise<void> {
    await Promise.all(parts.map((p) => this.#files.delete(p.fileId)));
  }

  #uploadablePurpose(purpose: string): FilePurpose {
    if (!(UPLOADABLE_PURPOSES as readonly string[]).includes(purpose)) {
      throw invalidRequest(`purpose must be one of ${UPLOADABLE_PURPOSES.join(', ')}`, 'purpose');
    }
    return purpose as FilePurpose;
  }

  /** Bounded by its UTF-8 size, which is what S3 metadata and object keys count (a character may be 4 bytes). */
  #checkFilename(filename: string): void {
    const bytes = Buffer.byteLength(filename, 'utf8');
    if (bytes === 0 || bytes > this.#limits.maxFilenameBytes) {
      throw invalidRequest(`filename must be 1 to ${this.#limits.maxFilenameBytes} bytes in UTF-8 (this one is ${bytes})`, 'filename');
    }
    if (/\p{Cs}/u.test(filename)) throw invalidRequest('filename is not valid Unicode (it has a lone surrogate)', 'filename');
  }

  async #checkQuota(ownerKeyId: string, incomingBytes: number): Promise<void> {
    const usage = await this.#files.usage?.(ownerKeyId);
    if (usage === undefined) return;
    if (usage.files >= this.#limits.maxFilesPerKey) {
      throw new RateLimitedError(`this key keeps ${usage.files} files (at most ${this.#limits.maxFilesPerKey}); delete some first`, QUOTA_RETRY_SECONDS);
    }
    if (usage.bytes + incomingBytes > this.#limits.maxStoredBytesPerKey) {
      throw new RateLimitedError(`this key stores ${usage.bytes} bytes (at most ${this.#limits.maxStoredBytesPerKey}); delete some files first`, QUOTA_RETRY_SECONDS);
    }
  }

  #uploadStore(): UploadStore {
    if (this.#uploads === undefined) throw new RerankError('not_found', 'uploads are not enabled on this deployment; upload files of up to 6 MB with POST /v1/files');
    return this.#uploads;
  }
}
