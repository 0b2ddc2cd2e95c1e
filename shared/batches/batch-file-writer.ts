import type { FilePurpose, FileRecord, FileStore, FileWriter } from '../files/file-store.js';

/** Bytes gathered before one FileWriter.write (an S3 multipart part wants megabytes, not lines). */
const FLUSH_BYTES = 1 << 20;

/** Outputs are not capped by the store: their size follows from the input's own bounds. */
const MAX_OUTPUT_BYTES = Number.MAX_SAFE_INTEGER;

/**
 * What runs around the file's open: `beforeOpen` first (a finalizer renews its lease there; a throw opens nothing),
 * `afterOpen` with the new file's id before any byte is written (a finalizer records it on its batch).
 */
export interface OpenHooks {
  readonly beforeOpen?: () => Promise<void>;
  readonly afterOpen?: (fileId: string) => Promise<void>;
}

/** A JSONL file written line by line to the FileStore, opened on its first line (no line: no file). */
export class JsonlFileWriter {
  readonly #files: FileStore;
  readonly #file: { ownerKeyId: string; filename: string; purpose: FilePurpose; expiresAt?: number };
  readonly #hooks: OpenHooks;
  #writer: FileWriter | undefined;
  #buffer: string[] = [];
  #bufferBytes = 0;
  lines = 0;

  constructor(
    files: FileStore,
    file: { ownerKeyId: string; filename: string; purpose: FilePurpose; expiresAt?: number },
    hooks: OpenHooks = {},
  ) {
    this.#files = files;
    this.#file = file;
    this.#hooks = hooks;
  }

  async writeLine(jsonl: string): Promise<void> {
    if (!this.#writer) {
      await this.#hooks.beforeOpen?.();
      this.#writer = await this.#files.openWriter({ ...this.#file, maxBytes: MAX_OUTPUT_BYTES });
      // A throw here leaves the writer set, so the caller's abort drops it.
      await this.#hooks.afterOpen?.(this.#writer.id);
    }
    this.#buffer.push(jsonl, '\n');
    this.#bufferBytes += jsonl.length + 1;
    this.lines++;
    if (this.#bufferBytes >= FLUSH_BYTES) await this.#flush();
  }

  async #flush(): Promise<void> {
    if (!this.#writer || this.#buffer.length === 0) return;
    const bytes = Buffer.from(this.#buffer.join(''), 'utf8');
    this.#buffer = [];
    this.#bufferBytes = 0;
    await this.#writer.write(bytes);
  }

  /** The file's record, or undefined when no line was written. */
  async close(): Promise<FileRecord | undefined> {
    if (!this.#writer) return undefined;
    await this.#flush();
    return this.#writer.close();
  }

  async abort(): Promise<void> {
    await this.#writer?.abort();
  }
}
