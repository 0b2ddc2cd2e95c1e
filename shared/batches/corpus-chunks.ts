import { invalidRequest } from '../core/rerank-error.js';
import type { ByteRange, FileRecord, FileStore } from '../files/file-store.js';
import type { BatchLimits } from './batch-limits.js';
import { DOCUMENTS_FILE_ID, parseCorpusDocument } from './corpus-reference.js';
import { estimatePairCost } from './estimate-pair-cost.js';
import { isBlankLine, readJsonlLines } from './jsonl-lines.js';
import { createHash } from 'node:crypto';

/** A slice of a corpus: documents `offset .. offset + count` are the file's bytes `range`. */
export interface CorpusChunk {
  readonly offset: number;
  readonly count: number;
  readonly range: ByteRange;
}

export interface CorpusPlan {
  readonly file: FileRecord;
  readonly count: number;
  readonly chunks: readonly CorpusChunk[];
}

/**
 * Streams a corpus file once: checks every line is a document, counts them and cuts chunks by estimated cost.
 * The query is not known here (one corpus serves many lines), so the cut counts the documents' own tokens.
 * Memory: one line plus the chunk list (a few bytes per chunk). Throws RerankError naming the fault.
 */
export async function planCorpusChunks(files: FileStore, fileId: string, ownerKeyId: string, limits: BatchLimits): Promise<CorpusPlan> {
  const file = await files.get(fileId);
  if (!file || file.ownerKeyId !== ownerKeyId)
    throw invalidRequest(`${DOCUMENTS_FILE_ID} '${fileId}' is not a file of yours`, DOCUMENTS_FILE_ID);
  if (file.purpose !== 'batch' && file.purpose !== 'user_data') {
    throw invalidRequest(
      `${DOCUMENTS_FILE_ID} '${fileId}' has purpose '${file.purpose}'; upload corpora with purpose batch or user_data`,
      DOCUMENTS_FILE_ID,
    );
  }
  // A corpus planned before under the same limits (its version pinned) is not read again: a batch over a stored
  // analysis then starts scoring at once instead of streaming a 200 MB file first.
  const planName = corpusPlanName(file.version, limits);
  const stored = await files.readDerived(fileId, planName);
  if (stored) {
    const { count, chunks } = JSON.parse(Buffer.from(stored).toString('utf8')) as { count: number; chunks: CorpusChunk[] };
    return { file, count, chunks };
  }
  const chunks: CorpusChunk[] = [];
  let count = 0;
  let current: { offset: number; count: number; start: number; end: number; cost: number } | undefined;
  for await (const line of readJsonlLines(files.read(fileId), { maxLineBytes: limits.maxCorpusLineBytes })) {
    if (line.tooLong)
      throw invalidRequest(`${DOCUMENTS_FILE_ID} line ${line.line} is longer than ${limits.maxCorpusLineBytes} bytes`, DOCUMENTS_FILE_ID);
    if (isBlankLine(line.bytes)) continue;
    if (line.line !== count + 1) {
      throw invalidRequest(
        `${DOCUMENTS_FILE_ID} line ${line.line - 1} is blank: every line is one document (its index is its line number)`,
        DOCUMENTS_FILE_ID,
      );
    }
    const document = parseCorpusDocument(line.bytes, line.line);
    count++;
    if (count > limits.maxCorpusDocuments) {
      throw invalidRequest(
        `${DOCUMENTS_FILE_ID} has more than ${limits.maxCorpusDocuments} documents, the limit per corpus`,
        DOCUMENTS_FILE_ID,
      );
    }
    const cost = estimatePairCost(0, document.text.length);
    if (current && (current.cost + cost > limits.chunkCost || current.count >= limits.maxChunkDocuments)) {
      chunks.push({ offset: current.offset, count: current.count, range: { start: current.start, end: current.end } });
      current = undefined;
    }
    if (!current) current = { offset: count - 1, count: 0, start: line.range.start, end: line.range.end, cost: 0 };
    current.count++;
    current.end = line.range.end;
    current.cost += cost;
  }
  if (current) chunks.push({ offset: current.offset, count: current.count, range: { start: current.start, end: current.end } });
  if (count === 0) throw invalidRequest(`${DOCUMENTS_FILE_ID} '${fileId}' holds no documents`, DOCUMENTS_FILE_ID);
  // Only a corpus that passed every check is kept (a refused one is read again, and refused again, by the next line).
  await files.putDerived(fileId, planName, Buffer.from(JSON.stringify({ count, chunks })));
  return { file, count, chunks };
}

/** The stored plan's name: the file's version and every limit the cut depends on. */
function corpusPlanName(version: string, limits: BatchLimits): string {
  const key = JSON.stringify([version, limits.chunkCost, limits.maxChunkDocuments, limits.maxCorpusDocuments, limits.maxCorpusLineBytes]);
  return `corpus-plan.${createHash('sha256').update(key).digest('hex').slice(0, 32)}.json`;
}
