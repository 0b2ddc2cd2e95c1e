import { createReadStream } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';

/**
 * Whether an ONNX file's graph names `opType`, without reading its weights. Op types are plain strings in the protobuf,
 * so the bytes are searched for the name; but an fp32 graph is almost all initializers (a 90 MB MiniLM-L6 took ~0.8 s of
 * CPU to search whole at every cold start, a 1.1 GB XLM-R base ~10x that). The file's protobuf structure is walked
 * instead: ModelProto's graph (field 7) is entered, GraphProto's initializers (fields 5 and 15, the weights) are
 * skipped by their length, and every other field's bytes (nodes, their subgraphs, functions, metadata) are searched.
 * A file that does not parse as that structure is searched whole, as before.
 */
export async function graphHasOpType(onnxPath: string, opType: string): Promise<boolean> {
  const needle = Buffer.from(opType);
  const handle = await open(onnxPath, 'r');
  try {
    const size = (await handle.stat()).size;
    const reader = new WindowReader(handle, size);
    return await searchModel(reader, needle);
  } catch (error) {
    if (!(error instanceof NotProtobuf)) throw error;
    return searchStream(onnxPath, needle);
  } finally {
    await handle.close();
  }
}

class NotProtobuf extends Error {}

const WINDOW_BYTES = 1 << 16;
const MODEL_GRAPH = 7;
const GRAPH_WEIGHTS = new Set([5, 15]);

/** Positional reads through a 64 KiB window, so walking thousands of small node fields is not a read each. */
class WindowReader {
  #start = 0;
  #bytes = Buffer.alloc(0);

  readonly #handle: FileHandle;
  readonly size: number;

  constructor(handle: FileHandle, size: number) {
    this.#handle = handle;
    this.size = size;
  }

  /** Makes the window hold [position, position + 20) (or to the end of the file): a tag and a length, at most. */
  async ensure(position: number): Promise<void> {
    if (position >= this.#start && position + 20 <= this.#start + this.#bytes.length) return;
    if (position >= this.#start && this.#start + this.#bytes.length === this.size && position < this.size) return;
    if (position >= this.size) throw new NotProtobuf();
    const length = Math.min(WINDOW_BYTES, this.size - position);
    this.#bytes = Buffer.alloc(length);
    await this.#handle.read(this.#bytes, 0, length, position);
    this.#start = position;
  }

  /** A varint at `position` (within the window ensure() prepared): its value and the position after it. */
  varint(position: number): [number, number] {
    let value = 0;
    for (let shift = 0, at = position; shift < 64; shift += 7, at++) {
      const byte = this.#bytes[at - this.#start];
      if (byte === undefined) throw new NotProtobuf();
      value += (byte & 0x7f) * 2 ** shift;
      if (byte < 0x80) {
        if (!Number.isSafeInteger(value)) throw new NotProtobuf();
        return [value, at + 1];
      }
    }
    throw new NotProtobuf();
  }

  /** Whether [start, end) holds `needle`, read in windows that overlap by its length. */
  async contains(start: number, end: number, needle: Buffer): Promise<boolean> {
    // A node's bytes are usually in the window already: searched there, with no read of their own.
    if (start >= this.#start && end <= this.#start + this.#bytes.length) {
      return this.#bytes.subarray(start - this.#start, end - this.#start).includes(needle);
    }
    for (let at = start; at < end; at += WINDOW_BYTES) {
      const length = Math.min(WINDOW_BYTES + needle.length - 1, end - at);
      const chunk = Buffer.alloc(length);
      await this.#handle.read(chunk, 0, length, at);
      if (chunk.includes(needle)) return true;
    }
    return false;
  }
}

/**
 * Walks the fields of one message in [start, end): `enter(field)` says whether a length-delimited field is a message
 * to walk with `inner` (else undefined), `skip(field)` whether its bytes are left unread; the rest are searched.
 */
async function searchFields(
  reader: WindowReader,
  start: number,
  end: number,
  needle: Buffer,
  rules: { readonly enter: (field: number) => boolean; readonly skip: (field: number) => boolean },
  entered: { found: boolean },
): Promise<boolean> {
  let at = start;
  while (at < end) {
    await reader.ensure(at);
    const [tag, afterTag] = reader.varint(at);
    const field = Math.floor(tag / 8);
    const wire = tag % 8;
    if (field === 0) throw new NotProtobuf();
    if (wire === 0) at = reader.varint(afterTag)[1];
    else if (wire === 1) at = afterTag + 8;
    else if (wire === 5) at = afterTag + 4;
    else if (wire === 2) {
      const [length, payload] = reader.varint(afterTag);
      at = payload + length;
      if (at > end) throw new NotProtobuf();
      if (rules.enter(field)) {
        entered.found = true;
        if (await searchFields(reader, payload, at, needle, GRAPH_RULES, entered)) return true;
      } else if (!rules.skip(field) && (await reader.contains(payload, at, needle))) return true;
    } else throw new NotProtobuf();
  }
  if (at !== end) throw new NotProtobuf();
  return false;
}

const GRAPH_RULES = { enter: () => false, skip: (field: number) => GRAPH_WEIGHTS.has(field) };
const MODEL_RULES = { enter: (field: number) => field === MODEL_GRAPH, skip: () => false };

async function searchModel(reader: WindowReader, needle: Buffer): Promise<boolean> {
  const entered = { found: false };
  const found = await searchFields(reader, 0, reader.size, needle, MODEL_RULES, entered);
  // Bytes that parse as fields but hold no graph are not an ONNX model: search them whole.
  if (!entered.found) throw new NotProtobuf();
  return found;
}

/** The whole file, streamed (a multi-GB file is not read at once). */
async function searchStream(file: string, needle: Buffer): Promise<boolean> {
  let tail = Buffer.alloc(0);
  for await (const chunk of createReadStream(file, { highWaterMark: 1 << 20 }) as AsyncIterable<Buffer>) {
    const window = Buffer.concat([tail, chunk]);
    if (window.includes(needle)) return true;
    tail = window.subarray(Math.max(0, window.length - needle.length + 1));
  }
  return false;
}
