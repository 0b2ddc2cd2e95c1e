/**
 * Where uploaded files, batch inputs, outputs and error files live: a local folder for `npm start`, S3 on AWS.
 * The bytes never pass through a queue or a database item; everything here streams.
 */
export type FilePurpose = 'batch' | 'batch_output' | 'user_data' | 'upload_part';

/** Every purpose a stored file can have (adapters check what they read back against it). */
export const FILE_PURPOSES: readonly FilePurpose[] = ['batch', 'batch_output', 'user_data', 'upload_part'];

/** What a caller may upload: output files are written by batches, parts only by the Uploads API. */
export const UPLOADABLE_PURPOSES: readonly FilePurpose[] = ['batch', 'user_data'];

/** A key's stored files, for its quotas. */
export interface FileUsage {
  readonly files: number;
  readonly bytes: number;
}

export interface FileRecord {
  /** `file-...`, as OpenAI's Files API spells ids. */
  readonly id: string;
  /** Non-secret id of the API key that owns the file; only it may see the file (others get 404). */
  readonly ownerKeyId: string;
  readonly filename: string;
  readonly purpose: FilePurpose;
  readonly bytes: number;
  /** Epoch seconds. */
  readonly createdAt: number;
  /** Epoch seconds after which the store may delete the file (documented retention); absent = kept. */
  readonly expiresAt?: number;
  /** Opaque version of the bytes (S3 version id or ETag; the local store's write id) that chunk tasks pin. */
  readonly version: string;
}

/** A byte slice `[start, end)` of a file. */
export interface ByteRange {
  readonly start: number;
  readonly end: number;
}

export interface NewFile {
  readonly ownerKeyId: string;
  readonly filename: string;
  readonly purpose: FilePurpose;
  readonly expiresAt?: number;
  /** The writer rejects (FileTooLargeError) as soon as the bytes written pass this, never after buffering them. */
  readonly maxBytes: number;
}

/** A file being written in order; nothing is visible to `get` until `close` resolves. */
export interface FileWriter {
  /**
   * The file's id, known from the open: a writer that must be able to find a file it may leave behind (a batch
   * finalizer that fails between close and its record) records it before any byte is visible.
   */
  readonly id: string;
  write(chunk: Uint8Array): Promise<void>;
  /** Makes the file visible and returns its record. */
  close(): Promise<FileRecord>;
  /** Drops what was written; safe to call after a failed write. */
  abort(): Promise<void>;
}

/** A listed file: its record without the version, which only a read of the bytes pins. */
export type ListedFile = Omit<FileRecord, 'version'>;

export interface FilePage {
  readonly files: readonly ListedFile[];
  readonly hasMore: boolean;
}

export interface FileStore {
  openWriter(file: NewFile): Promise<FileWriter>;
  get(id: string): Promise<FileRecord | undefined>;
  /**
   * The caller's files, newest first unless `order` says `asc`; `after` is the id the previous page ended with.
   * Without `purpose`, every purpose but `upload_part` (parts are pieces of an upload, never listed as files).
   */
  list(
    ownerKeyId: string,
    page: { readonly after?: string; readonly limit: number; readonly purpose?: FilePurpose; readonly order?: 'asc' | 'desc' },
  ): Promise<FilePage>;
  /** The file's bytes, streamed in order; a range reads only that slice. Throws FileNotFoundError when gone. */
  read(id: string, range?: ByteRange): AsyncIterable<Uint8Array>;
  /** Returns whether a file was deleted. */
  delete(id: string): Promise<boolean>;
  /** The key's files and bytes; a store without it (S3, where a lifecycle rule and API Gateway bound use) skips the quota. */
  usage?(ownerKeyId: string): Promise<FileUsage>;
  /**
   * The expiry sweep (a timer on `npm start`, the batch worker's schedule on AWS): removes what is past its file's
   * `expiresAt` and the derived objects of files deleted or expired, so none outlives its file. The local folder removes
   * the files too; on S3 the bucket's lifecycle rule takes the files and this only their derived objects.
   */
  deleteExpired?(): Promise<number>;
  /**
   * Keeps an object derived from the file's bytes (a shard of a corpus' stored analysis) under `name`
   * (derived-object-name.ts), beside the file: `delete` removes it with the file, and it expires with it. Replaces
   * an object of the same name. Throws FileNotFoundError when the file is gone, RangeError for a bad name.
   */
  putDerived(fileId: string, name: string, bytes: Uint8Array): Promise<void>;
  /** A derived object's bytes, read whole (callers keep them small: one shard); undefined when it or its file is gone. */
  readDerived(fileId: string, name: string): Promise<Uint8Array | undefined>;
}
