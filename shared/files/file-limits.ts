/**
 * Bounds of the Files and Uploads APIs, per key. Every one is a documented setting or a fixed protocol limit, so a
 * caller cannot make the service store, hold or stream more than these.
 */
export interface FileLimits {
  /** One file, uploaded whole or assembled from parts (OpenAI allows 512 MB; batch inputs 200 MB). */
  readonly maxFileBytes: number;
  /** One part of an upload: it travels in one request body, which Lambda caps at 6 MB with the form around it. */
  readonly maxPartBytes: number;
  readonly maxPartsPerUpload: number;
  /** Files a key keeps at once, and their bytes together. */
  readonly maxFilesPerKey: number;
  readonly maxStoredBytesPerKey: number;
  /** Uploads a key may have pending at once, and how long one stays open (OpenAI: an hour). */
  readonly maxPendingUploads: number;
  readonly uploadWindowSeconds: number;
  /**
   * A filename's size in UTF-8 bytes (not characters: 512 three-byte characters are 1,536 bytes). The S3 store
   * keeps the name in 2 KB of object metadata and in 1,024-byte index keys; 512 bytes fits both with room.
   */
  readonly maxFilenameBytes: number;
  /**
   * An upload's `mime_type`, in bytes: RFC 6838 allows 127 characters each for type and subtype. It is stored with the
   * upload (a DynamoDB item holds 400 KB), so an unbounded one was memory on `npm start` and a 500 on AWS.
   */
  readonly maxMimeTypeBytes: number;
  /** How long an uploaded file is kept (RERANK_FILE_RETENTION_DAYS), unless the caller asks for less. */
  readonly retentionSeconds: number;
}

const MiB = 1024 * 1024;

export const DEFAULT_FILE_LIMITS: FileLimits = {
  maxFileBytes: 200 * MiB,
  maxPartBytes: 4 * MiB,
  maxPartsPerUpload: 1_000,
  maxFilesPerKey: 10_000,
  maxStoredBytesPerKey: 10 * 1024 * MiB,
  maxPendingUploads: 100,
  uploadWindowSeconds: 3_600,
  maxFilenameBytes: 512,
  maxMimeTypeBytes: 255,
  retentionSeconds: 30 * 86_400,
};
