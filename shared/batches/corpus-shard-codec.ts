import { endianness } from 'node:os';
import type { DocumentShard } from '../core/document-analysis.js';

/** A stored shard and what the worker checks before scoring it. */
export interface StoredShardContent {
  readonly shard: DocumentShard;
  /** The first corpus line (1-based) longer than the API's document limit: stored cut, refused to a line without `truncate`. */
  readonly firstOverlongLine?: number;
}

const MAGIC = Buffer.from('RRSHARD1');
const LITTLE_ENDIAN = endianness() === 'LE';

interface Header {
  readonly count: number;
  readonly dimensions: number;
  readonly terms: number;
  readonly postings: number;
  readonly termBytes: number;
  readonly lexical: boolean;
  readonly firstOverlongLine?: number;
}

const pad4 = (n: number): number => (n + 3) & ~3;
const bytesOf = (array: Uint32Array | Float32Array): Buffer => Buffer.from(array.buffer, array.byteOffset, array.byteLength);

/**
 * A shard as one object: magic, a JSON header, then fp32 / uint32 arrays little-endian, each 4-byte aligned, and the
 * lexical terms as UTF-8 joined by newlines (tokenizeLexical never yields one). Read back as views, no per-value parse.
 */
export function encodeShard(content: StoredShardContent): Buffer {
  if (!LITTLE_ENDIAN) throw new Error('stored corpus shards are little-endian; this host is not');
  const { shard } = content;
  const termText = shard.lexical ? Buffer.from(shard.lexical.terms.join('\n'), 'utf8') : Buffer.alloc(0);
  const header: Header = {
    count: shard.count,
    dimensions: shard.vectors?.dimensions ?? 0,
    terms: shard.lexical?.terms.length ?? 0,
    postings: shard.lexical?.documents.length ?? 0,
    termBytes: termText.length,
    lexical: shard.lexical !== undefined,
    ...(content.firstOverlongLine === undefined ? {} : { firstOverlongLine: content.firstOverlongLine }),
  };
  const headerBytes = Buffer.from(JSON.stringify(header), 'utf8');
  const prefix = Buffer.alloc(pad4(MAGIC.length + 4 + headerBytes.length));
  MAGIC.copy(prefix, 0);
  prefix.writeUInt32LE(headerBytes.length, MAGIC.length);
  headerBytes.copy(prefix, MAGIC.length + 4);
  const parts = [prefix, bytesOf(shard.tokens)];
  if (shard.vectors) parts.push(bytesOf(shard.vectors.data));
  if (shard.lexical)
    parts.push(
      bytesOf(shard.lexical.lengths),
      bytesOf(shard.lexical.starts),
      bytesOf(shard.lexical.documents),
      bytesOf(shard.lexical.counts),
    );
  parts.push(termText);
  return Buffer.concat(parts);
}

/** Throws on bytes that are not a shard of this format (a shard is only ever read under the digest it was written with). */
export function decodeShard(bytes: Uint8Array): StoredShardContent {
  if (!LITTLE_ENDIAN) throw new Error('stored corpus shards are little-endian; this host is not');
  // The typed arrays below are views into the bytes, which must start 4-byte aligned: a read's own buffer does (its
  // offset is 0), and is used as it is - copying a 2 MB shard cost as much as reading it, and twice the garbage. Bytes
  // at an odd offset (a slice of a pooled buffer) are copied once. Nothing writes to a shard's bytes after this.
  const aligned = bytes.byteOffset % 4 === 0 ? bytes : Uint8Array.from(bytes);
  const buffer = aligned.buffer;
  const base = aligned.byteOffset;
  const view = Buffer.from(buffer, base, aligned.byteLength);
  if (!view.subarray(0, MAGIC.length).equals(MAGIC)) throw new Error('not a stored corpus shard');
  const headerLength = view.readUInt32LE(MAGIC.length);
  const header = JSON.parse(view.subarray(MAGIC.length + 4, MAGIC.length + 4 + headerLength).toString('utf8')) as Header;
  let at = pad4(MAGIC.length + 4 + headerLength);
  const u32 = (length: number): Uint32Array => {
    const array = new Uint32Array(buffer, base + at, length);
    at += length * 4;
    return array;
  };
  const tokens = u32(header.count);
  let vectors: DocumentShard['vectors'];
  if (header.dimensions > 0) {
    vectors = { dimensions: header.dimensions, data: new Float32Array(buffer, base + at, header.count * header.dimensions) };
    at += header.count * header.dimensions * 4;
  }
  let lexical: DocumentShard['lexical'];
  if (header.lexical) {
    const lengths = u32(header.count);
    const starts = u32(header.terms + 1);
    const documents = u32(header.postings);
    const counts = u32(header.postings);
    const text = view.subarray(at, at + header.termBytes).toString('utf8');
    at += header.termBytes;
    lexical = { terms: header.terms === 0 ? [] : text.split('\n'), starts, documents, counts, lengths };
  }
  if (at !== bytes.byteLength) throw new Error(`stored corpus shard: ${bytes.byteLength} bytes, expected ${at}`);
  return {
    shard: { count: header.count, tokens, ...(vectors ? { vectors } : {}), ...(lexical ? { lexical } : {}) },
    ...(header.firstOverlongLine === undefined ? {} : { firstOverlongLine: header.firstOverlongLine }),
  };
}
