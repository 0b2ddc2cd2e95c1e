import { createHash } from 'node:crypto';

/**
 * Embeddings of texts already encoded, by a digest of the text, least recently used evicted first. A bi-encoder
 * embeds each text on its own, so a text's embedding is the same whichever request brings it: a corpus that many
 * queries share (a batch's `documents_file_id`, or the same candidates sent again) is encoded once per process, not
 * once per query. Memory is bounded by `maxEntries` x dimensions x 4 bytes (20,000 x 512 floats: 40 MB).
 */
/** A text's embedding and the tokens the model read for it (usage is the same whether encoded now or before). */
export interface CachedEmbedding {
  readonly embedding: Float32Array;
  readonly tokens: number;
  /** True when the text was cut (to a token cap or the model's window): the tokens read are fewer than it has. */
  readonly cut?: boolean;
}

export class EmbeddingCache {
  readonly #entries = new Map<string, CachedEmbedding>();
  readonly #maxEntries: number;

  constructor(maxEntries: number) {
    this.#maxEntries = maxEntries;
  }

  /** A text's key; a text read under a token cap (`cut`: its cap and side) is another entry than the whole text. */
  static keyOf(text: string, cut?: string): string {
    const key = createHash('sha256').update(text).digest('base64');
    return cut === undefined ? key : `${key}|${cut}`;
  }

  get(key: string): CachedEmbedding | undefined {
    const found = this.#entries.get(key);
    if (found === undefined) return undefined;
    // Re-inserted: Map order is insertion order, so the oldest entry is the least recently used.
    this.#entries.delete(key);
    this.#entries.set(key, found);
    return found;
  }

  set(key: string, embedding: CachedEmbedding): void {
    if (this.#maxEntries === 0) return;
    this.#entries.delete(key);
    this.#entries.set(key, embedding);
    while (this.#entries.size > this.#maxEntries) this.#entries.delete(this.#entries.keys().next().value as string);
  }

  get size(): number {
    return this.#entries.size;
  }
}
