import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream, type Dir, type WriteStream } from 'node:fs';
import { mkdir, opendir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { once } from 'node:events';
import { FileNotFoundError, FileTooLargeError } from '../../files/file-errors.js';
import { checkDerivedObjectName, isDerivedObjectName } from '../../files/derived-object-name.js';
import {
  FILE_PURPOSES,
  type ByteRange,
  type FilePage,
  type FilePurpose,
  type FileRecord,
  type FileStore,
  type FileUsage,
  type FileWriter,
  type NewFile,
} from '../../files/file-store.js';

/** Ids this store hands out and accepts: OpenAI's `file-` prefix and 24 hex characters, so an id is never a path. */
const FILE_ID = /^file-[0-9a-f]{24}$/;
const newFileId = (): string => `file-${randomBytes(12).toString('hex')}`;
/** A key id becomes a folder name only as its digest: no caller text reaches a path. */
const ownerFolder = (ownerKeyId: string): string => createHash('sha256').update(ownerKeyId).digest('hex');

/**
 * FileStore on a local folder, for `npm start`: `content/<id>` holds the bytes, `records/<id>.json` the record and
 * `owners/<digest of key>/<id>` one empty marker per file, so a key's files are listed without reading every
 * record; `derived/<id>/<name>` holds what was derived from the file (a corpus' stored analysis). A file is written under a temporary name and its record is written last, by rename: a crash mid-upload
 * leaves no visible file, and readers never see a half-written one.
 */
export class LocalFolderFileStore implements FileStore {
  readonly #dir: string;
  readonly #now: () => number;

  constructor(dir: string, options: { readonly now?: () => number } = {}) {
    this.#dir = dir;
    this.#now = options.now ?? (() => Math.floor(Date.now() / 1000));
  }

  async openWriter(file: NewFile): Promise<FileWriter> {
    const id = newFileId();
    await Promise.all(
      ['content', 'records', join('owners', ownerFolder(file.ownerKeyId))].map((d) => mkdir(join(this.#dir, d), { recursive: true })),
    );
    const partial = this.#content(`${id}.partial`);
    const stream = createWriteStream(partial, { flags: 'wx' });
    let bytes = 0;
    let ended = false;
    const failed = (): Error | undefined => (stream.errored ? stream.errored : undefined);
    const end = async (target: WriteStream) => {
      if (ended) return;
      ended = true;
      target.end();
      if (!target.closed) await once(target, 'close');
    };
    return {
      id,
      write: async (chunk) => {
        bytes += chunk.length;
        if (bytes > file.maxBytes) throw new FileTooLargeError(file.maxBytes);
        const error = failed();
        if (error) throw error;
        // Back-pressure: one chunk in flight at a time, so a writer holds at most one chunk in memory. `once` rejects
        // on 'error' by itself and removes its listeners either way; a separate once(stream, 'error') left one
        // listener behind per wait, so a multi-MB upload passed ten and Node printed MaxListenersExceededWarning.
        if (!stream.write(chunk)) await once(stream, 'drain');
        const after = failed();
        if (after) throw after;
      },
      close: async () => {
        await end(stream);
        const error = failed();
        if (error) throw error;
        const record: FileRecord = {
          id,
          ownerKeyId: file.ownerKeyId,
          filename: file.filename,
          purpose: file.purpose,
          bytes,
          createdAt: this.#now(),
          version: id,
          ...(file.expiresAt === undefined ? {} : { expiresAt: file.expiresAt }),
        };
        await rename(partial, this.#content(id));
        await writeFile(this.#marker(file.ownerKeyId, id), '');
        const temp = this.#record(`${id}.partial`);
        await writeFile(temp, JSON.stringify(record));
        await rename(temp, this.#record(id));
        return record;
      },
      abort: async () => {
        await end(stream).catch(() => undefined);
        await rm(partial, { force: true });
      },
    };
  }

  async get(id: string): Promise<FileRecord | undefined> {
    const record = await this.#readRecord(id);
    return record !== undefined && !this.#expired(record) ? record : undefined;
  }

  async list(
    ownerKeyId: string,
    page: { readonly after?: string; readonly limit: number; readonly purpose?: FilePurpose; readonly order?: 'asc' | 'desc' },
  ): Promise<FilePage> {
    const records = await this.#ownedRecords(ownerKeyId);
    const mine = records.filter((r) => (page.purpose === undefined ? r.purpose !== 'upload_part' : r.purpose === page.purpose));
    const direction = page.order === 'asc' ? 1 : -1;
    mine.sort((a, b) => direction * (a.createdAt - b.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)));
    const start = page.after === undefined ? 0 : mine.findIndex((r) => r.id === page.after) + 1;
    return { files: mine.slice(start, start + page.limit), hasMore: mine.length > start + page.limit };
  }

  async *read(id: string, range?: ByteRange): AsyncIterable<Uint8Array> {
    if ((await this.get(id)) === undefined) throw new FileNotFoundError(id);
    if (range !== undefined && range.end <= range.start) return;
    const stream = createReadStream(this.#content(id), range === undefined ? {} : { start: range.start, end: range.end - 1 });
    try {
      for await (const chunk of stream) yield chunk as Uint8Array;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new FileNotFoundError(id, { cause: error });
      throw error;
    } finally {
      stream.destroy();
    }
  }

  async delete(id: string): Promise<boolean> {
    const record = await this.#readRecord(id);
    if (record === undefined) return false;
    // The record goes first: from then on the file is gone for readers, whatever happens to the rest.
    await rm(this.#record(id), { force: true });
    await Promise.all([
      rm(this.#content(id), { force: true }),
      rm(this.#marker(record.ownerKeyId, id), { force: true }),
      rm(join(this.#dir, 'derived', id), { recursive: true, force: true }),
    ]);
    return true;
  }

  async putDerived(fileId: string, name: string, bytes: Uint8Array): Promise<void> {
    checkDerivedObjectName(name);
    if ((await this.get(fileId)) === undefined) throw new FileNotFoundError(fileId);
    const folder = join(this.#dir, 'derived', fileId);
    await mkdir(folder, { recursive: true });
    // Written under a temporary name and renamed: a reader sees the whole object or none.
    const temp = join(folder, `${name}.${randomBytes(6).toString('hex')}.partial`);
    await writeFile(temp, bytes);
    await rename(temp, join(folder, name));
  }

  async readDerived(fileId: string, name: string): Promise<Uint8Array | undefined> {
    if (!isDerivedObjectName(name) || (await this.get(fileId)) === undefined) return undefined;
    try {
      return await readFile(join(this.#dir, 'derived', fileId, name));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }

  async usage(ownerKeyId: string): Promise<FileUsage> {
    const records = await this.#ownedRecords(ownerKeyId);
    return { files: records.length, bytes: records.reduce((sum, r) => sum + r.bytes, 0) };
  }

  /** The objects derived from a file that the folder holds (whole ones: a `.partial` is a write that never finished). */
  async storedDerived(fileId: string): Promise<{ readonly name: string; readonly bytes: number }[]> {
    const folder = join(this.#dir, 'derived', fileId);
    let names: string[];
    try {
      names = await readdir(folder);
    } catch {
      return [];
    }
    const whole = names.filter((name) => isDerivedObjectName(name) && !name.endsWith('.partial'));
    return Promise.all(whole.map(async (name) => ({ name, bytes: (await stat(join(folder, name))).size })));
  }

  /** Every file the folder holds now, of every key (what the quota ledger starts from after a restart). */
  async storedFiles(): Promise<FileRecord[]> {
    let names: string[];
    try {
      names = await readdir(join(this.#dir, 'records'));
    } catch {
      return [];
    }
    const records = await Promise.all(names.filter((n) => n.endsWith('.json')).map((n) => this.get(n.slice(0, -'.json'.length))));
    return records.filter((r): r is FileRecord => r !== undefined);
  }

  /**
   * The expiry sweep: deletes files past their `expiresAt` (their derived objects with them), then the derived objects
   * of files that are gone (a shard whose write raced the file's delete), so none outlives its file. Returns the files
   * deleted. A folder is read one name at a time.
   */
  async deleteExpired(): Promise<number> {
    let deleted = 0;
    for await (const name of this.#names('records')) {
      const id = name.replace(/\.json$/, '');
      const record = await this.#readRecord(id);
      if (record !== undefined && this.#expired(record) && (await this.delete(id))) deleted += 1;
    }
    for await (const id of this.#names('derived')) {
      // A file id's folder only: its record is written before anything is derived from it, so a missing one is gone.
      if (FILE_ID.test(id) && (await this.#readRecord(id)) === undefined)
        await rm(join(this.#dir, 'derived', id), { recursive: true, force: true });
    }
    return deleted;
  }

  async *#names(folder: string): AsyncIterable<string> {
    let dir: Dir;
    try {
      dir = await opendir(join(this.#dir, folder));
    } catch {
      return;
    }
    for await (const entry of dir) yield entry.name;
  }

  async #ownedRecords(ownerKeyId: string): Promise<FileRecord[]> {
    let ids: string[];
    try {
      ids = await readdir(join(this.#dir, 'owners', ownerFolder(ownerKeyId)));
    } catch {
      return [];
    }
    const records = await Promise.all(ids.map((id) => this.get(id)));
    return records.filter((r): r is FileRecord => r !== undefined && r.ownerKeyId === ownerKeyId);
  }

  async #readRecord(id: string): Promise<FileRecord | undefined> {
    if (!FILE_ID.test(id)) return undefined;
    let text: string;
    try {
      text = await readFile(this.#record(id), 'utf8');
    } catch {
      return undefined;
    }
    const record = JSON.parse(text) as FileRecord;
    if (!FILE_PURPOSES.includes(record.purpose)) return undefined;
    // The content must still be there (a delete interrupted after its first step leaves none).
    return (await stat(this.#content(id)).catch(() => undefined)) === undefined ? undefined : record;
  }

  #expired(record: FileRecord): boolean {
    return record.expiresAt !== undefined && record.expiresAt <= this.#now();
  }

  #content(name: string): string {
    return join(this.#dir, 'content', name);
  }

  #record(name: string): string {
    return join(this.#dir, 'records', `${name}.json`);
  }

  #marker(ownerKeyId: string, id: string): string {
    return join(this.#dir, 'owners', ownerFolder(ownerKeyId), id);
  }
}
