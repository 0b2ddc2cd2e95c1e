import type { FileStore, FileWriter } from '../../../shared/files/file-store.js';

/**
 * How the batches' output and error files were written: per file name, the writers opened (a finalizer that failed
 * and ran again opens a second one) and the most open at once (two finalizers writing one batch's output: never).
 */
export class FileWrites {
  readonly #opened = new Map<string, number>();
  readonly #open = new Map<string, number>();
  maxConcurrent = 0;

  /** Writers opened beyond one per file name (rewrites after a failed finalizer). */
  get rewrites(): number {
    return [...this.#opened.values()].reduce((sum, n) => sum + n - 1, 0);
  }

  watch(inner: FileStore): FileStore {
    return new Proxy(inner, {
      get: (target, name, receiver) => {
        const value = Reflect.get(target, name, receiver) as unknown;
        if (name !== 'openWriter') return typeof value === 'function' ? value.bind(target) : value;
        return async (file: Parameters<FileStore['openWriter']>[0]): Promise<FileWriter> => {
          const writer = await target.openWriter(file);
          if (!/_(output|error)\.jsonl$/.test(file.filename)) return writer;
          const key = `${file.ownerKeyId}/${file.filename}`;
          this.#opened.set(key, (this.#opened.get(key) ?? 0) + 1);
          const open = (this.#open.get(key) ?? 0) + 1;
          this.#open.set(key, open);
          this.maxConcurrent = Math.max(this.maxConcurrent, open);
          const done = () => this.#open.set(key, (this.#open.get(key) ?? 1) - 1);
          return {
            id: writer.id,
            write: (chunk) => writer.write(chunk),
            close: () => writer.close().finally(done),
            abort: () => writer.abort().finally(done),
          };
        };
      },
    });
  }
}
