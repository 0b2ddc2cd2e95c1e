import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { cosine, readBiEncoderFolder, type OnnxBiEncoder } from '../../shared/scoring/bi-encoder/index.js';
import type { Scorer } from '../../shared/core/scorer.js';

/**
 * sha256 of what decides a bi-encoder's embeddings: its ONNX graph (weights included) and its vocabulary.
 * Two folders with the same files share vectors; a retrained or reconverted model gets new ones.
 */
export async function modelDigest(folder: string): Promise<string> {
  const { onnxPath } = await readBiEncoderFolder(folder);
  const hash = createHash('sha256');
  for (const file of [onnxPath, join(folder, 'vocab.json')]) hash.update(createHash('sha256').update(readFileSync(file)).digest());
  return hash.digest('hex');
}

/** The cache file of one model under `dir` (eval/.cache): one file per model digest, so models never share vectors. */
export const embeddingCacheFile = (dir: string, digest: string): string => join(dir, `embeddings-${digest.slice(0, 16)}.json`);

interface CacheFile {
  readonly model: string;
  readonly vectors: Record<string, string>;
}

/**
 * Bi-encoder embeddings by (model digest, text), kept on disk between runs (eval/.cache, not committed):
 * the eval sets share documents between queries and scorers, and USE-lite costs ~50-150 ms per text on
 * the shared 2-CPU machine. Keys include the digest of the model's files (modelDigest) and a file
 * written for another model is ignored, so a new model is never scored on an old model's vectors.
 * Each text is embedded on its own by the same model, so cosines equal the served scorer's up to float
 * rounding of the batch padding.
 */
export class EmbeddingCache {
  readonly #vectors = new Map<string, Float32Array>();

  constructor(
    private readonly path: string,
    readonly digest: string,
  ) {
    if (!/^[0-9a-f]{64}$/.test(digest)) throw new Error(`EmbeddingCache: model digest must be 64 hex digits, got '${digest}'`);
    if (!existsSync(path)) return;
    const data = JSON.parse(readFileSync(path, 'utf8')) as Partial<CacheFile>;
    if (data.model !== digest || typeof data.vectors !== 'object' || data.vectors === null) return;
    for (const [k, b64] of Object.entries(data.vectors)) {
      const bytes = Buffer.from(b64, 'base64');
      this.#vectors.set(k, new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4));
    }
  }

  /** The cache of the model in `folder`, in its own file under `dir`. */
  static async forModel(dir: string, folder: string): Promise<EmbeddingCache> {
    const digest = await modelDigest(folder);
    return new EmbeddingCache(embeddingCacheFile(dir, digest), digest);
  }

  get size(): number {
    return this.#vectors.size;
  }

  #key(text: string): string {
    return createHash('sha256').update(this.digest).update('\0').update(text).digest('hex').slice(0, 32);
  }

  /** The cached embedding of a text, if any. */
  get(text: string): Float32Array | undefined {
    return this.#vectors.get(this.#key(text));
  }

  set(text: string, vector: Float32Array): void {
    this.#vectors.set(this.#key(text), vector);
  }

  save(): void {
    mkdirSync(dirname(this.path), { recursive: true });
    const vectors: Record<string, string> = {};
    for (const [k, v] of this.#vectors) vectors[k] = Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('base64');
    const file: CacheFile = { model: this.digest, vectors };
    writeFileSync(this.path, JSON.stringify(file));
  }

  /** Embeds the texts not cached yet, in batches, saving after each `saveEvery` texts. */
  async fill(
    model: Pick<OnnxBiEncoder, 'embed'>,
    texts: readonly string[],
    saveEvery = 256,
    progress?: (done: number, total: number) => void,
  ): Promise<void> {
    const missing = [...new Set(texts)].filter((t) => this.get(t) === undefined);
    for (let i = 0; i < missing.length; i += saveEvery) {
      const batch = missing.slice(i, i + saveEvery);
      const vectors = await model.embed(batch);
      batch.forEach((t, j) => this.set(t, vectors[j]!));
      this.save();
      progress?.(Math.min(i + saveEvery, missing.length), missing.length);
    }
  }

  /** A Scorer over the cache: cosine(query, document); embeds (and caches) what is missing. */
  scorer(model: OnnxBiEncoder): Scorer {
    return {
      id: model.id,
      scoreKind: 'similarity',
      candidateRelative: false,
      score: async (query, documents) => {
        await this.fill(model, [query, ...documents], Number.MAX_SAFE_INTEGER);
        const q = this.get(query)!;
        return {
          scores: documents.map((d) => cosine(q, this.get(d)!)),
          tokens: [query, ...documents].reduce((sum, t) => sum + model.tokenize(t).length, 0),
        };
      },
    };
  }
}
