import { createHash } from 'node:crypto';
import { RerankError } from '../core/rerank-error.js';
import type { AnalysisProgress, DocumentAnalysis } from '../core/document-analysis.js';
import type { ByteRange, FileStore } from '../files/file-store.js';
import { decodeShard, encodeShard, type StoredShardContent } from './corpus-shard-codec.js';
import { parseCorpusDocument } from './corpus-reference.js';
import { readJsonlLines } from './jsonl-lines.js';

/** One shard of a corpus: documents `offset .. offset + count`, the file's bytes `range` (a corpus chunk). */
export interface CorpusShardRef {
  readonly fileId: string;
  readonly version: string;
  readonly offset: number;
  readonly count: number;
  readonly range: ByteRange;
  /** The key whose batch reads the corpus (its owner): a shard stored for it counts against its stored bytes. */
  readonly ownerKeyId?: string;
}

export interface CorpusShardOptions {
  /** The API's document limit: longer documents are stored cut to it (a line without `truncate` is refused). */
  readonly maxDocumentChars: number;
  readonly maxCorpusLineBytes: number;
  /** Decoded shards kept for the next query over the same corpus (default 64 MiB); 0 = none. */
  readonly cacheBytes?: number;
  /**
   * Stores an analysed shard charged to its owner's quota; throws a RerankError (`rate_limited`, naming the stored-bytes
   * quota) when it is full: the lines are refused, never served by analysing the corpus again. Absent = stored uncharged.
   */
  readonly store?: (ref: CorpusShardRef, name: string, bytes: Uint8Array) => Promise<void>;
}

/** What the store did since it was made: shards analysed (documents encoded), read back from the FileStore, or found in memory. */
export interface CorpusShardStats {
  readonly analysed: number;
  readonly analysedDocuments: number;
  readonly read: number;
  readonly cached: number;
}

const DEFAULT_CACHE_BYTES = 64 * 1024 * 1024;
/** How long a key's full stored-bytes quota is taken as still full without asking the ledger (an analysis costs more). */
const FULL_REMEMBERED_MS = 60_000;

/**
 * The derived object of one shard: keyed by the file's version, the model's stored-form digest, the document limit
 * and the range, so a new version of the file, other weights or another limit never read this one.
 */
export function shardName(analysis: Pick<DocumentAnalysis, 'digest'>, ref: CorpusShardRef, maxDocumentChars: number): string {
  const version = createHash('sha256').update(ref.version).digest('hex').slice(0, 16);
  return `corpus.${version}.${analysis.digest.slice(0, 32)}.c${maxDocumentChars}.${ref.offset}-${ref.count}.shard`;
}

const shardBytes = (content: StoredShardContent): number =>
  content.shard.tokens.byteLength +
  (content.shard.vectors?.data.byteLength ?? 0) +
  (content.shard.lexical ? content.shard.lexical.documents.byteLength * 2 + content.shard.lexical.lengths.byteLength : 0);

/**
 * A corpus analysed once per (file version, model digest) and stored beside the file, shard by shard: `shard` reads
 * a stored shard, or reads the shard's byte range, analyses it and stores it. Shards are a worker's to read alone
 * (one contiguous document range each); nothing holds the whole corpus. Concurrent asks for one shard in a process
 * share one analysis.
 */
export class CorpusShardStore {
  readonly #files: FileStore;
  readonly #options: CorpusShardOptions;
  readonly #inFlight = new Map<string, Promise<StoredShardContent>>();
  readonly #cache = new Map<string, { content: StoredShardContent; bytes: number }>();
  #cachedBytes = 0;
  #stats = { analysed: 0, analysedDocuments: 0, read: 0, cached: 0 };
  /** Keys whose stored bytes refused a shard, with that refusal, until a moment has passed (deletes may free room). */
  readonly #full = new Map<string, { error: RerankError; until: number }>();

  constructor(files: FileStore, options: CorpusShardOptions) {
    this.#files = files;
    this.#options = options;
  }

  get stats(): CorpusShardStats {
    return { ...this.#stats };
  }

  async shard(analysis: DocumentAnalysis, ref: CorpusShardRef, signal?: AbortSignal): Promise<StoredShardContent> {
    return (await this.shardWithSource(analysis, ref, { signal })).content;
  }

  /**
   * The shard, and whether this call analysed it (its documents were encoded now) or found it stored. `progress` hears
   * the documents analysed so far while this call analyses it (not when it waits for another call's analysis).
   */
  async shardWithSource(
    analysis: DocumentAnalysis,
    ref: CorpusShardRef,
    options: { readonly signal?: AbortSignal | undefined; readonly progress?: AnalysisProgress | undefined } = {},
  ): Promise<{ content: StoredShardContent; analysed: boolean }> {
    const name = shardName(analysis, ref, this.#options.maxDocumentChars);
    const key = `${ref.fileId}/${name}`;
    const cached = this.#cache.get(key);
    if (cached) {
      this.#stats.cached++;
      // Re-inserted: the Map's first entry is the least recently used.
      this.#cache.delete(key);
      this.#cache.set(key, cached);
      return { content: cached.content, analysed: false };
    }
    const waiting = this.#inFlight.get(key);
    if (waiting) return { content: await waiting, analysed: false };
    const analysedBefore = this.#stats.analysed;
    const pending = this.#load(analysis, ref, name, options).finally(() => this.#inFlight.delete(key));
    this.#inFlight.set(key, pending);
    const content = await pending;
    this.#keep(key, content);
    return { content, analysed: this.#stats.analysed > analysedBefore };
  }

  async #load(
    analysis: DocumentAnalysis,
    ref: CorpusShardRef,
    name: string,
    { signal, progress }: { readonly signal?: AbortSignal | undefined; readonly progress?: AnalysisProgress | undefined },
  ): Promise<StoredShardContent> {
    const stored = await this.#files.readDerived(ref.fileId, name);
    if (stored) {
      const content = decodeShard(stored);
      if (content.shard.count === ref.count) {
        this.#stats.read++;
        return content;
      }
    }
    // A key found full a moment ago is refused before the analysis: the refusal costs no shard of work per group.
    const full = ref.ownerKeyId === undefined ? undefined : this.#full.get(ref.ownerKeyId);
    if (full && full.until > performance.now()) throw full.error;
    const { texts, firstOverlongLine } = await this.#texts(ref);
    const shard = await analysis.analyse(texts, signal, progress);
    const content: StoredShardContent = { shard, ...(firstOverlongLine === undefined ? {} : { firstOverlongLine }) };
    const encoded = encodeShard(content);
    try {
      await (this.#options.store ?? ((r, n, b) => this.#files.putDerived(r.fileId, n, b)))(ref, name, encoded);
    } catch (error) {
      if (error instanceof RerankError && error.kind === 'rate_limited' && ref.ownerKeyId !== undefined)
        this.#full.set(ref.ownerKeyId, { error, until: performance.now() + FULL_REMEMBERED_MS });
      throw error;
    }
    this.#stats.analysed++;
    this.#stats.analysedDocuments += texts.length;
    return content;
  }

  #keep(key: string, content: StoredShardContent): void {
    const max = this.#options.cacheBytes ?? DEFAULT_CACHE_BYTES;
    const bytes = shardBytes(content);
    if (bytes > max || this.#cache.has(key)) return;
    this.#cache.set(key, { content, bytes });
    this.#cachedBytes += bytes;
    for (const [oldest, entry] of this.#cache) {
      if (this.#cachedBytes <= max) break;
      this.#cache.delete(oldest);
      this.#cachedBytes -= entry.bytes;
    }
  }

  /** The shard's documents, read by byte range: each cut to the document limit, the first overlong line noted. */
  async #texts(ref: CorpusShardRef): Promise<{ texts: string[]; firstOverlongLine?: number }> {
    const max = this.#options.maxDocumentChars;
    const texts: string[] = [];
    let firstOverlongLine: number | undefined;
    const lines = readJsonlLines(this.#files.read(ref.fileId, ref.range), {
      maxLineBytes: this.#options.maxCorpusLineBytes,
      startByte: ref.range.start,
      firstLine: ref.offset + 1,
    });
    for await (const line of lines) {
      if (!line.bytes) throw new RerankError('invalid_request', `documents_file_id line ${line.line} is too long`);
      const text = parseCorpusDocument(line.bytes, line.line).text;
      if (text.length > max) firstOverlongLine ??= line.line;
      texts.push(text.length > max ? text.slice(0, max) : text);
    }
    if (texts.length !== ref.count) throw new Error(`corpus shard at ${ref.offset}: ${texts.length} documents for ${ref.count}`);
    return { texts, ...(firstOverlongLine === undefined ? {} : { firstOverlongLine }) };
  }
}
