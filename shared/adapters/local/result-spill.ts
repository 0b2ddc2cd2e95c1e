import { mkdirSync, rmSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { BatchRequestResult } from '../../batches/batch-model.js';

export interface ResultSpillOptions {
  /** A folder of the process's own: emptied when the store starts (what it held died with the previous process). */
  readonly dir: string;
  /** Lines larger than this go to disk; smaller ones stay in memory. Default 64 KiB. */
  readonly aboveBytes?: number;
}

/**
 * Where the embedded batch store keeps large result lines until their batch ends: one file per line under the batch's
 * folder. A batch's output is bounded by its key's stored-bytes quota (10 GiB by default), far more than a process
 * should hold; on disk it costs what the output file will cost anyway.
 */
export class ResultSpill {
  readonly #dir: string;
  readonly #aboveBytes: number;

  constructor(options: ResultSpillOptions) {
    this.#dir = options.dir;
    this.#aboveBytes = options.aboveBytes ?? 64 * 1024;
    rmSync(this.#dir, { recursive: true, force: true });
    mkdirSync(this.#dir, { recursive: true });
  }

  takes(result: BatchRequestResult): boolean {
    return Buffer.byteLength(result.jsonl, 'utf8') > this.#aboveBytes;
  }

  /** Writes the line; resolves with its file. Batch ids are the engine's own (`batch_` + hex), never a caller's text. */
  async write(batchId: string, result: BatchRequestResult): Promise<string> {
    const folder = this.#folder(batchId);
    await mkdir(folder, { recursive: true });
    const file = join(folder, `${result.line}.jsonl`);
    await writeFile(file, result.jsonl, 'utf8');
    return file;
  }

  read(file: string): Promise<string> {
    return readFile(file, 'utf8');
  }

  async drop(batchId: string): Promise<void> {
    await rm(this.#folder(batchId), { recursive: true, force: true });
  }

  #folder(batchId: string): string {
    return join(this.#dir, encodeURIComponent(batchId));
  }
}
