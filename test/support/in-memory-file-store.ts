import { randomBytes, randomUUID } from 'node:crypto';
import type {
  ByteRange,
  FilePage,
  FilePurpose,
  FileRecord,
  FileStore,
  FileUsage,
  FileWriter,
  NewFile,
} from '../../shared/files/file-store.js';
import { FileNotFoundError, FileTooLargeError } from '../../shared/files/file-errors.js';
import { checkDerivedObjectName } from '../../shared/files/derived-object-name.js';

/**
 * A FileStore in memory for unit tests of what streams over the port; it passes the same contract suite as the
 * local-folder and S3 adapters (test/contract/file-store.contract.ts). Reads come in small pieces, so line
 * splitting across reads is always exercised.
 */
export class InMemoryFileStore implements FileStore {
  readonly #files = new Map<string, { record: FileRecord; bytes: Buffer }>();
  readonly #derived = new Map<string, Map<string, Buffer>>();
  readonly #readPieceBytes: number;
  readonly #now: () => number;
  /** Bytes handed out by `read`, for tests that check a range read reads only its range. */
  bytesRead = 0;

  constructor(options: { readonly readPieceBytes?: number; readonly now?: () => number } = {}) {
    this.#readPieceBytes = options.readPieceBytes ?? 7;
    this.#now = options.now ?? (() => Math.floor(Date.now() / 1000));
  }

  /** A file not yet past its expiresAt (the port's stores hide expired files at once). */
  #live(id: string): { record: FileRecord; bytes: Buffer } | undefined {
    const file = this.#files.get(id);
    return file && (file.record.expiresAt === undefined || file.record.expiresAt > this.#now()) ? file : undefined;
  }

  /** Stores a whole file at once (test setup). */
  async put(ownerKeyId: string, filename: string, purpose: FilePurpose, content: string | Buffer): Promise<FileRecord> {
    const writer = await this.openWriter({ ownerKeyId, filename, purpose, maxBytes: Number.MAX_SAFE_INTEGER });
    await writer.write(Buffer.from(content));
    return writer.close();
  }

  /** A file's whole content (test assertions). */
  text(id: string): string {
    const file = this.#files.get(id);
    if (!file) throw new FileNotFoundError(id);
    return file.bytes.toString('utf8');
  }

  async openWriter(file: NewFile): Promise<FileWriter> {
    const parts: Buffer[] = [];
    let bytes = 0;
    let closed = false;
    const id = `file-${randomBytes(12).toString('hex')}`;
    return {
      id,
      write: async (chunk) => {
        bytes += chunk.length;
        if (bytes > file.maxBytes) throw new FileTooLargeError(file.maxBytes);
        parts.push(Buffer.from(chunk));
      },
      close: async () => {
        if (closed) throw new Error('writer already closed');
        closed = true;
        const record: FileRecord = {
          id,
          ownerKeyId: file.ownerKeyId,
          filename: file.filename,
          purpose: file.purpose,
          bytes,
          createdAt: this.#now(),
          version: randomUUID(),
          ...(file.expiresAt === undefined ? {} : { expiresAt: file.expiresAt }),
        };
        this.#files.set(record.id, { record, bytes: Buffer.concat(parts) });
        return record;
      },
      abort: async () => {
        closed = true;
      },
    };
  }

  async get(id: string): Promise<FileRecord | undefined> {
    return this.#live(id)?.record;
  }

  async list(
    ownerKeyId: string,
    page: { readonly after?: string; readonly limit: number; readonly purpose?: FilePurpose; readonly order?: 'asc' | 'desc' },
  ): Promise<FilePage> {
    const oldestFirst = [...this.#files.keys()]
      .map((id) => this.#live(id)?.record)
      // Upload parts are listed only when asked for by purpose (the FileStore port's rule).
      .filter(
        (r): r is FileRecord =>
          r !== undefined &&
          r.ownerKeyId === ownerKeyId &&
          (page.purpose === undefined ? r.purpose !== 'upload_part' : r.purpose === page.purpose),
      )
      // Stable: files of the same second keep the order they were written in.
      .sort((a, b) => a.createdAt - b.createdAt);
    const mine = page.order === 'asc' ? oldestFirst : oldestFirst.reverse();
    const start = page.after ? mine.findIndex((r) => r.id === page.after) + 1 : 0;
    return { files: mine.slice(start, start + page.limit), hasMore: mine.length > start + page.limit };
  }

  async *read(id: string, range?: ByteRange): AsyncIterable<Uint8Array> {
    const file = this.#live(id);
    if (!file) throw new FileNotFoundError(id);
    const bytes = range ? file.bytes.subarray(range.start, range.end) : file.bytes;
    for (let at = 0; at < bytes.length; at += this.#readPieceBytes) {
      const piece = bytes.subarray(at, at + this.#readPieceBytes);
      this.bytesRead += piece.length;
      yield piece;
    }
  }

  async usage(ownerKeyId: string): Promise<FileUsage> {
    const mine = [...this.#files.keys()].map((id) => this.#live(id)?.record).filter((r) => r?.ownerKeyId === ownerKeyId) as FileRecord[];
    return { files: mine.length, bytes: mine.reduce((sum, r) => sum + r.bytes, 0) };
  }

  async delete(id: string): Promise<boolean> {
    this.#derived.delete(id);
    return this.#files.delete(id);
  }

  async putDerived(fileId: string, name: string, bytes: Uint8Array): Promise<void> {
    checkDerivedObjectName(name);
    if (!this.#live(fileId)) throw new FileNotFoundError(fileId);
    const objects = this.#derived.get(fileId) ?? new Map<string, Buffer>();
    objects.set(name, Buffer.from(bytes));
    this.#derived.set(fileId, objects);
  }

  async readDerived(fileId: string, name: string): Promise<Uint8Array | undefined> {
    if (!this.#live(fileId)) return undefined;
    const bytes = this.#derived.get(fileId)?.get(name);
    return bytes && Buffer.from(bytes);
  }

  /** Derived objects kept for a file (test assertions). */
  derivedNames(fileId: string): string[] {
    return [...(this.#derived.get(fileId)?.keys() ?? [])];
  }
}
