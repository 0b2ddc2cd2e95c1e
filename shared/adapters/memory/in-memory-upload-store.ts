import { UploadStateError, type UploadPart, type UploadRecord, type UploadStatus, type UploadStore } from '../../files/upload-store.js';

/**
 * Ended uploads remembered so a late part or a second cancel gets its 409 instead of a 404; beyond this many the
 * oldest is forgotten (each is a few hundred bytes: no parts, no mime type).
 */
export const MAX_ENDED_UPLOADS = 10_000;

/**
 * Pending uploads of `npm start`, in memory: an upload lives an hour at most, so a restart costs callers only their
 * open uploads (their part files expire with them). Nothing here grows with what callers send: an ended upload is
 * kept as a slim record (no parts, no mime type) and only the latest MAX_ENDED_UPLOADS of them; a pending upload past
 * its hour is forgotten when the next one is created.
 */
export class InMemoryUploadStore implements UploadStore {
  readonly #uploads = new Map<string, UploadRecord>();
  /** Ended upload ids, oldest first (a Map keeps insertion order). */
  readonly #ended = new Map<string, true>();

  async create(upload: UploadRecord): Promise<void> {
    this.#forgetExpired(upload.createdAt);
    this.#uploads.set(upload.id, upload);
  }

  async get(id: string): Promise<UploadRecord | undefined> {
    return this.#uploads.get(id);
  }

  async addPart(id: string, part: UploadPart, maxParts: number): Promise<UploadRecord> {
    const upload = this.#uploads.get(id);
    if (upload === undefined || upload.status !== 'pending') throw new UploadStateError('not_pending', `upload ${id} is not pending`);
    if (upload.parts.length >= maxParts) throw new UploadStateError('too_many_parts', `an upload takes at most ${maxParts} parts`);
    if (upload.parts.reduce((sum, p) => sum + p.bytes, 0) + part.bytes > upload.bytes) {
      throw new UploadStateError('too_many_bytes', `the parts would pass the ${upload.bytes} bytes upload ${id} announced`);
    }
    const next = { ...upload, parts: [...upload.parts, part] };
    this.#uploads.set(id, next);
    return next;
  }

  async end(id: string, status: Exclude<UploadStatus, 'pending'>, fileId?: string): Promise<boolean> {
    const upload = this.#uploads.get(id);
    if (upload === undefined || upload.status !== 'pending') return false;
    // The parts' ids and the caller's mime type are no use once the upload has ended: keep only what its answer shows.
    this.#uploads.set(id, { ...upload, mimeType: '', parts: [], status, ...(fileId === undefined ? {} : { fileId }) });
    this.#ended.set(id, true);
    for (const oldest of this.#ended.keys()) {
      if (this.#ended.size <= MAX_ENDED_UPLOADS) break;
      this.#ended.delete(oldest);
      this.#uploads.delete(oldest);
    }
    return true;
  }

  async pendingCount(ownerKeyId: string, now: number): Promise<number> {
    let count = 0;
    for (const upload of this.#uploads.values())
      if (upload.ownerKeyId === ownerKeyId && upload.status === 'pending' && upload.expiresAt > now) count += 1;
    return count;
  }

  /** Pending uploads past their hour are over (their part files expire with them, their quota hold too). */
  #forgetExpired(now: number): void {
    for (const [id, upload] of this.#uploads) if (upload.status === 'pending' && upload.expiresAt <= now) this.#uploads.delete(id);
  }
}
