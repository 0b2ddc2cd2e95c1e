import { FAMILY_CONTROLS, keepTokens, type TruncationSide } from '../../core/request-controls.js';
import { EmbeddingCache, type CachedEmbedding } from './embedding-cache.js';
import { endianness } from 'node:os';
import type { BatchLimits } from '../length-batches.js';
import { defaultIntraOpThreads } from '../../config/lambda-vcpus.js';
import type { BatchFeeds } from '../onnx-runtime/batch-runner.js';
import type { ExecutionPlan } from '../onnx-runtime/execution-plan.js';
import { explicitPlacement, PlannedRunners } from '../onnx-runtime/planned-runners.js';
import type { ScoreBatch, ScoreOptions, Scorer } from '../../core/scorer.js';
import type { AnalysisProgress } from '../../core/document-analysis.js';
import { mapInSlices } from '../map-in-slices.js';
import { readBiEncoderFolder } from './bi-encoder-folder.js';
import { UseTokenizer } from './use-tokenizer.js';
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createStoredAnalysis, type DenseSide, type StoredAnalysis } from '../corpus/stored-analysis.js';

export interface OnnxBiEncoderOptions {
  /** Model id clients send in the `model` field. */
  readonly id: string;
  /** Bi-encoder model folder (models/use-lite layout: config.json with rerank_kind "bi-encoder", vocab.json, onnx/model.onnx). */
  readonly folder: string;
  /** ONNX file relative to the folder; default onnx/model.onnx, then model.onnx. */
  readonly modelFile?: string;
  /**
   * CPUs the scorer may use; default defaultIntraOpThreads() (Lambda: vCPUs of the memory size), placed by the
   * execution plan as the cross-encoder's are (sessions on worker threads, an in-thread small-request session).
   */
  readonly threads?: number;
  /** Explicit placement instead of the plan (tests, bench): see RunnerPlacement. */
  readonly inWorkerThread?: boolean;
  readonly workers?: number;
  readonly smallRequestSession?: boolean;
  /** Max texts per ONNX run (default 64). */
  readonly batchSize?: number;
  /** Max padded tokens per ONNX run (default 64 x 128 = 8192). */
  readonly maxBatchTokens?: number;
  /** Embeddings kept for texts seen again (a corpus shared by many queries); 0 = none. Default 20,000. */
  readonly embeddingCacheEntries?: number;
}

/** A loaded bi-encoder: scores are cosine(query, document) in [-1, 1]; `embed` is exposed for tests and tools. */
export interface OnnxBiEncoder extends Scorer {
  readonly scoreKind: 'similarity';
  /** Each document is embedded on its own: its score never depends on the other candidates (chunkable). */
  readonly candidateRelative: false;
  /** Tokens per text the model reads (longer texts are cut to their first maxLength tokens). */
  readonly maxLength: number;
  /** Embedding width. */
  readonly dimensions: number;
  /** Token ids the model sees for a text (after truncation). */
  tokenize(text: string): number[];
  /** One embedding per text, in input order (unit length for USE lite). */
  embed(texts: readonly string[]): Promise<Float32Array[]>;
  /**
   * Embeddings and token counts of texts, past the cache (a corpus keeps its stored shards instead); counted as encoded.
   * `progress` hears the texts embedded so far after each model run.
   */
  encode(
    texts: readonly string[],
    signal?: AbortSignal,
    progress?: AnalysisProgress,
  ): Promise<{ embeddings: Float32Array[]; tokens: number[] }>;
  /** A corpus analysed once into stored fp32 embeddings (DocumentAnalysis); its digest covers the weights and vocabulary. */
  readonly documentAnalysis: StoredAnalysis;
  /** Texts found in the embedding cache and texts encoded by `score` or `encode` since load (how often a corpus was encoded). */
  readonly embeddingStats: { readonly reused: number; readonly encoded: number };
  /** Where its sessions run (the same plan as a cross-encoder of its size). */
  readonly plan: ExecutionPlan;
  /** Resolves when the plan's small-request session has loaded (true) or will not be used (false). */
  smallRequestSessionReady(): Promise<boolean>;
  close(): Promise<void>;
}

/** Embeddings a process keeps for texts it sees again: 20,000 x 512 floats is 40 MB. */
const DEFAULT_EMBEDDING_CACHE_ENTRIES = 20_000;

const DEFAULT_BATCH_SIZE = 64;
const DEFAULT_MAX_LENGTH_BATCH_TOKENS = 64 * 128;
const EXPECTED_INPUTS = ['attention_mask', 'input_ids'];
const LITTLE_ENDIAN = endianness() === 'LE';

/** Right-padded int64 input_ids / attention_mask for one batch (pad id 0 under mask 0), transferable to a worker. */
function batchFeeds(rows: ReadonlyArray<readonly number[]>): BatchFeeds {
  let width = 1; // an all-empty batch still needs one (masked) column
  for (const ids of rows) width = Math.max(width, ids.length);
  const inputIds = new BigInt64Array(rows.length * width);
  const attentionMask = new BigInt64Array(rows.length * width);
  if (LITTLE_ENDIAN) {
    // Ids are small non-negative ints: write the low 32-bit word of each int64, no BigInt per token.
    const ids32 = new Int32Array(inputIds.buffer);
    const mask32 = new Int32Array(attentionMask.buffer);
    rows.forEach((ids, row) => {
      const offset = 2 * row * width;
      for (let i = 0; i < ids.length; i++) {
        ids32[offset + 2 * i] = ids[i]!;
        mask32[offset + 2 * i] = 1;
      }
    });
  } else {
    rows.forEach((ids, row) => {
      for (let i = 0; i < ids.length; i++) {
        inputIds[row * width + i] = BigInt(ids[i]!);
        attentionMask[row * width + i] = 1n;
      }
    });
  }
  return { dims: [rows.length, width], inputs: { input_ids: inputIds, attention_mask: attentionMask } };
}

/** Cosine similarity; 0 when either vector is all zeros. */
export function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  let normA = 0;
  let normB = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = b[i]!;
    dot += x * y;
    normA += x * x;
    normB += y * y;
  }
  return normA === 0 || normB === 0 ? 0 : dot / Math.sqrt(normA * normB);
}

class OnnxBiEncoderScorer implements OnnxBiEncoder {
  readonly scoreKind = 'similarity' as const;
  /** The token caps and the side cut each text in its own tokens (the cache keys them); it has no instruction slot. */
  readonly controls = FAMILY_CONTROLS['bi-encoder'];
  readonly candidateRelative = false as const;
  #closed = false;
  /** Texts being encoded by a call still running, so concurrent chunks of one corpus share the work. */
  readonly #inFlight = new Map<string, Promise<CachedEmbedding>>();
  #encoded = 0;
  #reused = 0;
  readonly documentAnalysis: StoredAnalysis;

  readonly #runners: PlannedRunners;
  readonly #tokenizer: UseTokenizer;
  readonly #outputName: string;
  readonly #limits: BatchLimits;
  readonly #cache: EmbeddingCache;

  constructor(
    readonly id: string,
    runners: PlannedRunners,
    tokenizer: UseTokenizer,
    outputName: string,
    readonly maxLength: number,
    readonly dimensions: number,
    limits: BatchLimits,
    cache: EmbeddingCache,
    weightsDigest: string,
  ) {
    this.#runners = runners;
    this.#tokenizer = tokenizer;
    this.#outputName = outputName;
    this.#limits = limits;
    this.#cache = cache;
    const dense: DenseSide = {
      digest: weightsDigest,
      dimensions,
      encode: (texts, signal, progress) => this.encode(texts, signal, progress),
    };
    this.documentAnalysis = createStoredAnalysis({ dense, combine: (cosine) => cosine });
  }

  get plan(): ExecutionPlan {
    return this.#runners.plan;
  }

  smallRequestSessionReady(): Promise<boolean> {
    return this.#runners.smallRequestSessionReady();
  }

  get embeddingStats(): { reused: number; encoded: number } {
    return { reused: this.#reused, encoded: this.#encoded };
  }

  /** A text's ids as the model reads them: cut to `max` from `side`, then to the model's window from the same side. */
  tokenize(text: string, max?: number, side?: TruncationSide): number[] {
    return this.#tokenizeCounted(text, max, side).ids;
  }

  async #embedTokenized(
    rows: ReadonlyArray<readonly number[]>,
    signal?: AbortSignal,
    progress?: AnalysisProgress,
  ): Promise<Float32Array[]> {
    if (this.#closed) throw new Error(`scorer ${this.id} is closed`);
    const embeddings = new Array<Float32Array>(rows.length);
    let embedded = 0;
    // The plain length batches (batchInvariant false: which texts share a run never changes), costliest first
    // over the plan's sessions.
    await this.#runners.runBatches(
      rows.map((ids) => ids.length),
      { ...this.#limits, batchInvariant: false },
      async (batch, runner) => {
        const output = await runner.run(batchFeeds(batch.map((index) => rows[index]!)));
        if (output.dims.length !== 2 || output.dims[1] !== this.dimensions) {
          throw new Error(
            `model ${this.id}: output ${this.#outputName} has shape [${output.dims.join(', ')}], expected [batch, ${this.dimensions}]`,
          );
        }
        const data = output.data;
        batch.forEach((index, row) => {
          embeddings[index] = data.slice(row * this.dimensions, (row + 1) * this.dimensions);
        });
        embedded += batch.length;
        await progress?.(embedded);
      },
      signal,
    );
    return embeddings;
  }

  async encode(
    texts: readonly string[],
    signal?: AbortSignal,
    progress?: AnalysisProgress,
  ): Promise<{ embeddings: Float32Array[]; tokens: number[] }> {
    const rows = await mapInSlices(texts, (text) => this.tokenize(text), signal);
    this.#encoded += texts.length;
    return { embeddings: await this.#embedTokenized(rows, signal, progress), tokens: rows.map((ids) => ids.length) };
  }

  embed(texts: readonly string[]): Promise<Float32Array[]> {
    return this.#embedTokenized(texts.map((text) => this.tokenize(text)));
  }

  async score(query: string, documents: readonly string[], options?: ScoreOptions): Promise<ScoreBatch> {
    if (this.#closed) throw new Error(`scorer ${this.id} is closed`);
    if (documents.length === 0) return { scores: [], tokens: 0 };
    // Texts embedded before (a shared corpus, the same query's other chunks) are taken from the cache; the rest,
    // the query among them, are encoded in one pass, batched by length together.
    const texts = [query, ...documents];
    // A token cap or side changes what is read of a text, so it is part of the text's cache key.
    const caps = texts.map((_, i) => (i === 0 ? options?.maxQueryTokens : options?.maxDocumentTokens));
    const side = options?.truncationSide;
    const capOf = (i: number) => (caps[i] === undefined && side === undefined ? undefined : `${caps[i] ?? ''}:${side ?? ''}`);
    const keys = texts.map((text, i) => EmbeddingCache.keyOf(text, capOf(i)));
    const found = new Map<string, CachedEmbedding>();
    const waiting = new Map<string, Promise<CachedEmbedding>>();
    const missing: {
      key: string;
      text: string;
      max: number | undefined;
      settle: (entry: CachedEmbedding) => void;
      fail: (error: unknown) => void;
    }[] = [];
    keys.forEach((key, i) => {
      if (found.has(key) || waiting.has(key)) return;
      const cached = this.#cache.get(key);
      if (cached) return void found.set(key, cached);
      // Another chunk of the same corpus is encoding this text right now: wait for it instead of encoding it twice.
      const inFlight = this.#inFlight.get(key);
      if (inFlight) return void waiting.set(key, inFlight);
      let settle!: (entry: CachedEmbedding) => void;
      let fail!: (error: unknown) => void;
      const promise = new Promise<CachedEmbedding>((resolve, reject) => ((settle = resolve), (fail = reject)));
      promise.catch(() => undefined);
      this.#inFlight.set(key, promise);
      waiting.set(key, promise);
      missing.push({ key, text: texts[i]!, max: caps[i], settle, fail });
    });
    this.#encoded += missing.length;
    this.#reused += texts.length - missing.length;
    try {
      // Tokenized in slices (a 1,500-document request held the event loop ~100 ms in one piece); the deadline is
      // checked between slices and between batches.
      const rows = await mapInSlices(missing, (m) => this.#tokenizeCounted(m.text, m.max, side), options?.signal);
      const encoded = await this.#embedTokenized(
        rows.map((row) => row.ids),
        options?.signal,
      );
      missing.forEach((m, i) => {
        const entry = { embedding: encoded[i]!, tokens: rows[i]!.ids.length, ...(rows[i]!.cut ? { cut: true } : {}) };
        this.#cache.set(m.key, entry);
        m.settle(entry);
      });
    } catch (error) {
      for (const m of missing) m.fail(error);
      throw error;
    } finally {
      for (const m of missing) this.#inFlight.delete(m.key);
    }
    for (const [key, promise] of waiting) found.set(key, await promise);
    const [queryEntry, ...documentEntries] = keys.map((key) => found.get(key)!);
    const cut = documentEntries.flatMap((entry, index): [number, number][] => (entry.cut ? [[index, entry.tokens]] : []));
    const queryCut = queryEntry!.cut ? { query: queryEntry!.tokens } : {};
    return {
      scores: documentEntries.map((entry) => cosine(queryEntry!.embedding, entry.embedding)),
      tokens: queryEntry!.tokens + documentEntries.reduce((sum, entry) => sum + entry.tokens, 0),
      ...(cut.length > 0 || queryEntry!.cut ? { cuts: { ...queryCut, documents: cut } } : {}),
    };
  }

  /** tokenize, and whether it cut the text. */
  #tokenizeCounted(text: string, max: number | undefined, side: TruncationSide | undefined): { ids: number[]; cut: boolean } {
    const all = this.#tokenizer.encode(text);
    const ids = [...keepTokens(keepTokens(all, max, side), this.maxLength, side)];
    return { ids, cut: ids.length < all.length };
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#runners.close();
  }
}

/**
 * Loads an ONNX bi-encoder folder once (tokenizer + ONNX Runtime session) and returns a Scorer whose scores are
 * cosine(query embedding, document embedding) (scoreKind 'similarity'; tokens = query + document tokens read).
 * Throws ModelFolderError for a missing/malformed folder and Error for a graph with unexpected inputs/outputs.
 */
export async function loadOnnxBiEncoder(options: OnnxBiEncoderOptions): Promise<OnnxBiEncoder> {
  const folder = await readBiEncoderFolder(options.folder, options.modelFile === undefined ? {} : { modelFile: options.modelFile });
  const tokenizer = new UseTokenizer(folder.vocabulary, folder.reservedSymbols);
  // The cross-encoder's runners, plan and session options: on 2 CPUs the placements encode within noise of one
  // in-thread session (bench/event-loop.md), and the graph runs off the event loop.
  const runners = await PlannedRunners.start({
    modelId: options.id,
    onnxPath: folder.onnxPath,
    outputName: folder.outputName,
    threads: options.threads ?? defaultIntraOpThreads(),
    ...explicitPlacement(options),
    warmupFeeds: () => batchFeeds([[0]]),
  });
  const inputs = [...runners.inputNames].sort();
  if (inputs.join() !== EXPECTED_INPUTS.join() || !runners.outputNames.includes(folder.outputName)) {
    await runners.close();
    throw new Error(
      `model ${options.id}: ONNX graph ${folder.onnxPath} has inputs [${runners.inputNames.join(', ')}] and outputs ` +
        `[${runners.outputNames.join(', ')}]; expected [${EXPECTED_INPUTS.join(', ')}] -> ${folder.outputName}`,
    );
  }
  return new OnnxBiEncoderScorer(
    options.id,
    runners,
    tokenizer,
    folder.outputName,
    folder.maxLength,
    folder.dimensions,
    {
      batchSize: options.batchSize ?? DEFAULT_BATCH_SIZE,
      maxBatchTokens: options.maxBatchTokens ?? DEFAULT_MAX_LENGTH_BATCH_TOKENS,
    },
    new EmbeddingCache(options.embeddingCacheEntries ?? DEFAULT_EMBEDDING_CACHE_ENTRIES),
    await weightsDigest(folder.onnxPath, folder),
  );
}

/** What a stored embedding depends on: the graph's bytes, the vocabulary and the length texts are cut to. */
async function weightsDigest(
  onnxPath: string,
  folder: { vocabulary: unknown; maxLength: number; dimensions: number; outputName: string },
): Promise<string> {
  const hash = createHash('sha256').update(await readFile(onnxPath));
  hash.update(JSON.stringify([folder.vocabulary, folder.maxLength, folder.dimensions, folder.outputName]));
  return hash.digest('hex');
}
