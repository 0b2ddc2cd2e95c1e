import type { ByteRange } from '../files/file-store.js';

/** One line of a JSONL file: its bytes (without the newline) and where they sit in the file. */
export type JsonlLine =
  | { readonly line: number; readonly range: ByteRange; readonly bytes: Buffer; readonly tooLong?: undefined }
  /** Past the bound: its bytes were skipped, never buffered; the caller reports the line. */
  | { readonly line: number; readonly range: ByteRange; readonly bytes?: undefined; readonly tooLong: true };

export interface JsonlReadOptions {
  /** Lines longer than this many bytes come back as `tooLong` (their bytes are dropped as they stream past). */
  readonly maxLineBytes: number;
  /** Where `chunks` start in the file (a byte-range read), so ranges and line numbers stay file-global. */
  readonly startByte?: number;
  /** Line number of the first line in `chunks` (1-based). */
  readonly firstLine?: number;
}

const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;

/**
 * Splits a byte stream (FileStore.read) into lines as it arrives: memory is one chunk plus at most one
 * line of `maxLineBytes`, whatever the file's size. A final line without a newline counts as a line.
 */
export async function* readJsonlLines(chunks: AsyncIterable<Uint8Array>, options: JsonlReadOptions): AsyncGenerator<JsonlLine> {
  let line = options.firstLine ?? 1;
  let lineStart = options.startByte ?? 0;
  let position = lineStart;
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let tooLong = false;

  const finish = (end: number): JsonlLine => {
    const range = { start: lineStart, end };
    let result: JsonlLine;
    if (tooLong) result = { line, range, tooLong: true };
    else {
      let bytes = pending.length === 1 ? (pending[0] as Buffer) : Buffer.concat(pending, pendingBytes);
      if (bytes.length > 0 && bytes[bytes.length - 1] === CARRIAGE_RETURN) bytes = bytes.subarray(0, bytes.length - 1);
      result = { line, range, bytes };
    }
    line++;
    pending = [];
    pendingBytes = 0;
    tooLong = false;
    return result;
  };

  const keep = (part: Buffer): void => {
    if (tooLong || part.length === 0) return;
    if (pendingBytes + part.length > options.maxLineBytes) {
      tooLong = true;
      pending = [];
      pendingBytes = 0;
      return;
    }
    // Copy: the producer may reuse its buffer once we move on.
    pending.push(Buffer.from(part));
    pendingBytes += part.length;
  };

  for await (const chunk of chunks) {
    const buffer = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    let from = 0;
    for (let at = buffer.indexOf(NEWLINE, from); at >= 0; at = buffer.indexOf(NEWLINE, from)) {
      keep(buffer.subarray(from, at));
      yield finish(position + at);
      lineStart = position + at + 1;
      from = at + 1;
    }
    keep(buffer.subarray(from));
    position += buffer.length;
  }
  if (position > lineStart || pendingBytes > 0) yield finish(position);
}

/** True for a line with nothing but whitespace (trailing blank lines of a file are not requests). */
export const isBlankLine = (bytes: Buffer): boolean => bytes.every((b) => b === 0x20 || b === 0x09 || b === CARRIAGE_RETURN);
