/** Words per chunk: ~400 tokens for English WordPiece, leaving room for the query within 512. */
export const CHUNK_WORDS = 300;

export interface SplitDocuments {
  /** Texts to score: every chunk of every document, in document order. */
  readonly texts: string[];
  /** owner[i] = index of the document chunk i came from. */
  readonly owner: number[];
}

/**
 * Cohere's `max_chunks_per_doc`: a long document is split into word windows (at most `maxChunks`, the
 * rest is dropped as Cohere does) and scored chunk by chunk; its score is its best chunk's.
 */
export function splitLongDocuments(documents: readonly string[], maxChunks: number): SplitDocuments {
  const texts: string[] = [];
  const owner: number[] = [];
  documents.forEach((text, index) => {
    const words = text.split(/\s+/).filter(Boolean);
    const chunks = Math.max(1, Math.min(maxChunks, Math.ceil(words.length / CHUNK_WORDS)));
    if (chunks === 1) {
      texts.push(text);
      owner.push(index);
      return;
    }
    for (let c = 0; c < chunks; c++) {
      texts.push(words.slice(c * CHUNK_WORDS, (c + 1) * CHUNK_WORDS).join(' '));
      owner.push(index);
    }
  });
  return { texts, owner };
}

/** The best chunk's score per document; NaN chunks lose to any number. */
export function maxPerOwner(scores: readonly number[], owner: readonly number[], documentCount: number): number[] {
  const best = new Array<number>(documentCount).fill(Number.NaN);
  scores.forEach((score, i) => {
    const o = owner[i] as number;
    const current = best[o] as number;
    if (Number.isNaN(current) || score > current) best[o] = score;
  });
  return best;
}
