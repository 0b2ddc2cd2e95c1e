import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { cosine, type OnnxBiEncoder } from '../../shared/scoring/bi-encoder/index.js';
import type { Scorer } from '../../shared/core/scorer.js';

const key = (text: string): string => createHash('sha256').update(text).digest('hex').slice(0, 32);

/**
 * Bi-encoder embeddings by text, kept on disk between runs (eval/.cache, not committed): the eval
 * sets share documents between queries and scorers, and USE-lite costs ~50-150 ms per text on the
 * shared 2-CPU machine. Each text is embedded on its own by the same model, so cosines equal the
 * served scorer's up to float rounding of the batch padding.
 */
export class EmbeddingCache {
  readonly #vectors = new Map<string, Float32Array>();

  constructor(private readonly path: string) {
    if (!existsSync(path)) return;
    const data = JSON.parse(readFileSync(path, 'utf8')) as Record<string, string>;
    for (const [k, b64] of Object.entries(data)) {
      const bytes = Buffer.from(b64, 'base64');
      this.#vectors.set(k, new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4));
    }
  }

  get size(): number {
    return this.#vectors.size;
  }

  save(): void {
    mkdirSync(dirname(this.path), { recursive: true });
    const data: Record<string, string> = {};
    for (const [k, v] of this.#vectors) data[k] = Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('base64');
    writeFileSync(this.path, JSON.stringify(data));
  }

  /** Embeds the texts not cached yet, in batches, saving after each `saveEvery` texts. */
  async fill(model: OnnxBiEncoder, texts: readonly string[], saveEvery = 256, progress?: (done: number, total: number) => void): Promise<void> {
    const missing = [...new Set(texts)].filter((t) => !this.#vectors.has(key(t)));
    for (let i = 0; i < missing.length; i += saveEvery) {
      const batch = missing.slice(i, i + saveEvery);
      const vectors = await model.embed(batch);
      batch.forEach((t, j) => this.#vectors.set(key(t), vectors[j]!));
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
        const q = this.#vectors.get(key(query))!;
        return {
          scores: documents.map((d) => cosine(q, this.#vectors.get(key(d))!)),
          tokens: [query, ...documents].reduce((sum, t) => sum + model.tokenize(t).length, 0),
        };
      },
    };
  }
}
