import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream, existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { once } from 'node:events';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ByteRange, FilePage, FilePurpose, FileRecord, FileStore, FileWriter, NewFile } from '../../../shared/files/file-store.js';
import { FileNotFoundError } from '../../../shared/files/file-errors.js';
import { checkDerivedObjectName, isDerivedObjectName } from '../../../shared/files/derived-object-name.js';

/**
 * A FileStore over a scratch folder for the batch bench only: bytes on disk, streamed both ways, so the
 * process' peak memory is the engine's, not the files'. (The service's local-folder adapter is the Files
 * API's; the bench measures the engine over the port, whichever adapter serves it.)
 */
export class BenchFolderFileStore implements FileStore {
  readonly #root: string;
  readonly #records = new Map<string, FileRecord>();

  constructor(root: string) {
    this.#root = root;
    mkdirSync(root, { recursive: true });
  }

  async openWriter(file: NewFile): Promise<FileWriter> {
    const id = `file-${randomUUID().replace(/-/g, '')}`;
    const partial = join(this.#root, `${id}.part`);
    const stream = createWriteStream(partial);
    let bytes = 0;
    return {
      id,
      write: async (chunk) => {
        bytes += chunk.length;
        if (!stream.write(chunk)) await once(stream, 'drain');
      },
      close: async () => {
        stream.end();
        await once(stream, 'finish');
        renameSync(partial, join(this.#root, id));
        const record: FileRecord = {
          id,
          ownerKeyId: file.ownerKeyId,
          filename: file.filename,
          purpose: file.purpose,
          bytes,
          createdAt: Math.floor(Date.now() / 1000),
          version: id,
        };
        this.#records.set(id, record);
        return record;
      },
      abort: async () => {
        stream.destroy();
        rmSync(partial, { force: true });
      },
    };
  }

  /** Adopts a file the bench wrote straight to disk (no copy through the writer). */
  adopt(path: string, ownerKeyId: string, purpose: FilePurpose): FileRecord {
    const id = `file-${randomUUID().replace(/-/g, '')}`;
    renameSync(path, join(this.#root, id));
    const record: FileRecord = {
      id,
      ownerKeyId,
      filename: path,
      purpose,
      bytes: statSync(join(this.#root, id)).size,
      createdAt: Math.floor(Date.now() / 1000),
      version: id,
    };
    this.#records.set(id, record);
    return record;
  }

  async get(id: string): Promise<FileRecord | undefined> {
    return this.#records.get(id);
  }

  async list(ownerKeyId: string, page: { readonly limit: number }): Promise<FilePage> {
    const files = [...this.#records.values()].filter((r) => r.ownerKeyId === ownerKeyId);
    return { files: files.slice(0, page.limit), hasMore: files.length > page.limit };
  }

  async *read(id: string, range?: ByteRange): AsyncIterable<Uint8Array> {
    if (!this.#records.has(id)) throw new FileNotFoundError(id);
    if (range && range.end <= range.start) return;
    yield* createReadStream(join(this.#root, id), {
      highWaterMark: 1 << 16,
      ...(range ? { start: range.start, end: range.end - 1 } : {}),
    }) as AsyncIterable<Buffer>;
  }

  async delete(id: string): Promise<boolean> {
    rmSync(join(this.#root, id), { force: true });
    rmSync(join(this.#root, `${id}.derived`), { recursive: true, force: true });
    return this.#records.delete(id);
  }

  async putDerived(fileId: string, name: string, bytes: Uint8Array): Promise<void> {
    checkDerivedObjectName(name);
    if (!this.#records.has(fileId)) throw new FileNotFoundError(fileId);
    mkdirSync(join(this.#root, `${fileId}.derived`), { recursive: true });
    await writeFile(join(this.#root, `${fileId}.derived`, name), bytes);
  }

  /** Bytes of the objects derived from a file (the stored analysis' size). */
  derivedBytes(fileId: string): number {
    const folder = join(this.#root, `${fileId}.derived`);
    return existsSync(folder) ? readdirSync(folder).reduce((sum, name) => sum + statSync(join(folder, name)).size, 0) : 0;
  }

  async readDerived(fileId: string, name: string): Promise<Uint8Array | undefined> {
    if (!isDerivedObjectName(name) || !this.#records.has(fileId)) return undefined;
    return readFile(join(this.#root, `${fileId}.derived`, name)).catch(() => undefined);
  }
}
