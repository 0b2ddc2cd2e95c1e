import { RerankError } from '../core/rerank-error.js';
import { admitBatchLine, type AdmittedLine } from './admit-batch-line.js';
import type { BatchEngineDeps } from './batch-engine-deps.js';
import type { BatchChunkTask, BatchRecord, BatchRequestPlan } from './batch-model.js';
import { parseCorpusDocument } from './corpus-reference.js';
import { readJsonlLines } from './jsonl-lines.js';
import { readFileSlice } from './read-file-slice.js';

/**
 * Admitted lines kept by this worker: a line's chunks arrive together (the planner sends them in order), and a
 * group's lines come with every shard of the group, so a line is read and parsed about once, not once per chunk (its
 * cost stays linear in its size). Bounded by count and by the lines' bytes (an inline line can be megabytes).
 */
const ADMITTED_LINES_KEPT = 256;
const ADMITTED_BYTES_KEPT = 32 * 1024 * 1024;

/** How a chunk worker reads a batch line's input: the line by its byte range (admitted again), and a corpus slice. */
export class BatchLineReader {
  readonly #deps: BatchEngineDeps;
  readonly #admitted = new Map<string, { admitted: AdmittedLine; bytes: number }>();
  #admittedBytes = 0;
  readonly #reading = new Map<string, Promise<{ admitted: AdmittedLine; bytes: number }>>();

  constructor(deps: BatchEngineDeps) {
    this.#deps = deps;
  }

  /** The input line, read back by its byte range and admitted again (the same admission as the planner's). */
  async readLine(batch: BatchRecord, plan: BatchRequestPlan): Promise<AdmittedLine> {
    const key = `${batch.id}\n${batch.inputFileVersion}\n${plan.line}`;
    const kept = this.#admitted.get(key);
    if (kept) {
      // Re-inserted: the Map's first entry is the least recently used.
      this.#admitted.delete(key);
      this.#admitted.set(key, kept);
      return kept.admitted;
    }
    // The runners take a line's (or a group's) first tasks at once: one read and admission serves them all.
    let reading = this.#reading.get(key);
    if (!reading) {
      reading = readFileSlice(this.#deps.files, batch.inputFileId, plan.range)
        .then((bytes) => ({ admitted: admitBatchLine(bytes, batch.endpoint, this.#deps.admission), bytes: bytes.length }))
        .finally(() => this.#reading.delete(key));
      this.#reading.set(key, reading);
    }
    const read = await reading;
    const { admitted } = read;
    if (!this.#admitted.has(key)) {
      this.#admitted.set(key, read);
      this.#admittedBytes += read.bytes;
    }
    for (const [oldest, entry] of this.#admitted) {
      if (this.#admitted.size <= ADMITTED_LINES_KEPT && this.#admittedBytes <= ADMITTED_BYTES_KEPT) break;
      this.#admitted.delete(oldest);
      this.#admittedBytes -= entry.bytes;
    }
    return admitted;
  }

  /** The chunk's corpus documents, read by byte range; a too-long one is cut when the line says `truncate`, refused otherwise. */
  async corpusTexts(task: BatchChunkTask, plan: BatchRequestPlan, admitted: AdmittedLine): Promise<string[]> {
    if (plan.candidates.kind !== 'corpus' || !task.corpusRange) throw new Error('corpus chunk without a corpus');
    const max = this.#deps.maxDocumentChars ?? Infinity;
    const texts: string[] = [];
    const lines = readJsonlLines(this.#deps.files.read(plan.candidates.fileId, task.corpusRange), {
      maxLineBytes: this.#deps.limits.maxCorpusLineBytes,
      startByte: task.corpusRange.start,
      firstLine: task.offset + 1,
    });
    for await (const line of lines) {
      if (!line.bytes) throw new RerankError('invalid_request', `documents_file_id line ${line.line} is too long`);
      let text = parseCorpusDocument(line.bytes, line.line).text;
      if (text.length > max) {
        if (!admitted.request.truncate) {
          throw new RerankError(
            'payload_too_large',
            `documents_file_id line ${line.line} is longer than ${max} characters; shorten it or send truncate: true`,
          );
        }
        text = text.slice(0, max);
      }
      texts.push(text);
    }
    if (texts.length !== task.count) throw new Error(`corpus chunk ${task.chunkIndex}: ${texts.length} documents for ${task.count}`);
    return texts;
  }
}
