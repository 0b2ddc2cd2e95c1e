import { UploadStateError, type UploadPart, type UploadRecord, type UploadStatus, type UploadStore } from '../../files/upload-store.js';

/**
 * Pending uploads of `npm start`, in memory: an upload lives an hour at most, so a restart costs callers only their
 * open uploads (their part files expire with them).
 */
export class InMemoryUploadStore implements UploadStore {
  readonly #uploads = new Map<string, UploadRecord>();

  async create(upload: UploadRecord): Promise<void> {
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
    this.#uploads.set(id, { ...upload, status, ...(fileId === undefined ? {} : { fileId }) });
    return true;
  }

  async pendingCount(ownerKeyId: string, now: number): Promise<number> {
    let count = 0;
    for (const upload of this.#uploads.values()) if (upload.ownerKeyId === ownerKeyId && upload.status === 'pending' && upload.expiresAt > now) count += 1;
    return count;
  }
}
