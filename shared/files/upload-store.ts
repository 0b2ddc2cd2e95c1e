import type { FilePurpose } from './file-store.js';

/** OpenAI's Upload statuses: `pending` until completed, cancelled, or past its hour. */
export type UploadStatus = 'pending' | 'completed' | 'cancelled' | 'expired';

export interface UploadPart {
  /** `part_...`, as OpenAI spells part ids. */
  readonly id: string;
  /** The stored file (purpose `upload_part`) holding the part's bytes. */
  readonly fileId: string;
  readonly bytes: number;
  readonly createdAt: number;
}

export interface UploadRecord {
  /** `upload_...`. */
  readonly id: string;
  readonly ownerKeyId: string;
  readonly filename: string;
  readonly purpose: FilePurpose;
  /** The size the caller announced; the parts must add up to it exactly. */
  readonly bytes: number;
  readonly mimeType: string;
  readonly createdAt: number;
  readonly expiresAt: number;
  readonly status: UploadStatus;
  readonly parts: readonly UploadPart[];
  /** The file the completed upload became. */
  readonly fileId?: string;
}

/** Why a part was not added; the service turns each into the API's answer. */
export class UploadStateError extends Error {
  constructor(
    readonly reason: 'not_pending' | 'too_many_parts' | 'too_many_bytes',
    message: string,
  ) {
    super(message);
    this.name = 'UploadStateError';
  }
}

/**
 * Where pending uploads are kept between their requests. Parts are files in the FileStore; this holds only their
 * ids, so a record stays small. Every change is conditional on the upload being `pending`, so a part added while
 * another request completes or cancels it is refused instead of lost.
 */
export interface UploadStore {
  create(upload: UploadRecord): Promise<void>;
  get(id: string): Promise<UploadRecord | undefined>;
  /**
   * Appends a part to a pending upload with fewer than `maxParts` whose parts, this one included, stay within the
   * announced bytes; throws UploadStateError otherwise. The check and the append are one atomic step, so parts
   * sent in parallel cannot together pass the announced bytes.
   */
  addPart(id: string, part: UploadPart, maxParts: number): Promise<UploadRecord>;
  /** Moves a pending upload to its end state; false when it was no longer pending. */
  end(id: string, status: Exclude<UploadStatus, 'pending'>, fileId?: string): Promise<boolean>;
  /** Uploads of this key still pending at `now` (for the per-key quota). */
  pendingCount(ownerKeyId: string, now: number): Promise<number>;
}
