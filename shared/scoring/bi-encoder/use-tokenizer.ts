/**
 * The Universal Sentence Encoder (lite) tokenizer, ported from the TF.js original
 * (tfjs-models universal-sentence-encoder, as shipped in @energetic-ai/embeddings 0.2.0) so that it gives
 * the original's token ids EXACTLY (test/unit/scoring/bi-encoder/use-tokenizer.test.ts checks that against ids
 * the original produced). Its quirks are kept on purpose, because the model was run with them:
 * - NFKC, then every ' ' becomes '\u2581' and one '\u2581' is prepended (no trimming, no space collapsing;
 *   other whitespace such as '\n' is left as is and usually becomes an unknown piece).
 * - Viterbi over the vocabulary's log-probabilities; a code point no piece starts with is one unknown piece
 *   (id 0) of score 0; consecutive unknown pieces are merged into one.
 * - Ties go to the later candidate, and a position whose best score is exactly 0 counts as unset.
 * - Backtracking steps back by the UTF-16 length of the piece string while the lattice is in code points
 *   (only differs for pieces with astral characters).
 * The only change: no O(n^2) array slicing per position (same result, linear-ish time on long documents).
 */

/**
 * vocab.json of the model folder: [piece, log-probability], index = token id. A few pieces of the USE lite
 * vocabulary (':', '://', '▁:)', ...) have a null score; the original's JS arithmetic (null + x === x) makes
 * that 0, the best score there is, and so does this port.
 */
export type UseVocabulary = ReadonlyArray<readonly [string, number | null]>;

/** Ids 0-5 are reserved (0 = unknown, <s>, </s>, extra ids) and never produced from text except 0. */
export const USE_RESERVED_SYMBOLS = 6;

const WORD_MARKER = '\u2581';

interface TrieNode {
  readonly children: Map<string, TrieNode>;
  /** Set when a vocabulary piece ends here. */
  piece?: { readonly length: number; readonly score: number; readonly id: number };
}

interface Candidate {
  readonly length: number; // in code points
  readonly score: number;
  readonly id: number;
}

function newNode(): TrieNode {
  return { children: new Map() };
}

export class UseTokenizer {
  readonly #root: TrieNode = newNode();

  readonly #vocabulary: UseVocabulary;

  constructor(vocabulary: UseVocabulary, reservedSymbols: number = USE_RESERVED_SYMBOLS) {
    this.#vocabulary = vocabulary;
    for (let id = reservedSymbols; id < vocabulary.length; id++) {
      const [piece, score] = vocabulary[id]!;
      const symbols = [...piece];
      if (symbols.length === 0) continue; // the original never marks an empty piece as a word end
      let node = this.#root;
      for (const symbol of symbols) {
        let child = node.children.get(symbol);
        if (child === undefined) {
          child = newNode();
          node.children.set(symbol, child);
        }
        node = child;
      }
      node.piece = { length: symbols.length, score: score ?? 0, id }; // a duplicate piece: the later id wins, as in the original
    }
  }

  /** Vocabulary size (ids are below this). */
  get size(): number {
    return this.#vocabulary.length;
  }

  /** All pieces starting at `start`, shortest first; a lone unknown piece when none does. */
  #candidatesAt(symbols: readonly string[], start: number): Candidate[] {
    const found: Candidate[] = [];
    let node = this.#root.children.get(symbols[start]!);
    for (let i = start; i < symbols.length && node !== undefined; i++) {
      if (node.piece !== undefined) found.push(node.piece);
      const next = symbols[i + 1];
      node = next === undefined ? undefined : node.children.get(next);
    }
    if (found.length === 0) found.push({ length: 1, score: 0, id: 0 });
    return found;
  }

  /** Token ids of a text (no special tokens, no truncation). */
  encode(text: string): number[] {
    const normalized = text.normalize('NFKC');
    const input = normalized.length > 0 ? WORD_MARKER + normalized.replace(/ /g, WORD_MARKER) : normalized;
    const symbols = [...input];
    const n = symbols.length;
    // endingAt[end] lists (start, candidates) in ascending start order, like the original's object keys.
    const endingAt: Array<Array<{ start: number; candidates: Candidate[] }>> = Array.from({ length: n + 1 }, () => []);
    for (let start = 0; start < n; start++) {
      const byEnd = new Map<number, Candidate[]>();
      for (const candidate of this.#candidatesAt(symbols, start)) {
        const end = start + candidate.length;
        const list = byEnd.get(end);
        if (list === undefined) byEnd.set(end, [candidate]);
        else list.push(candidate);
      }
      for (const [end, candidates] of byEnd) endingAt[end]!.push({ start, candidates });
    }
    const best = new Float64Array(n + 1);
    const words = new Int32Array(n + 1);
    for (let end = 0; end <= n; end++) {
      for (const { candidates } of endingAt[end]!) {
        for (const candidate of candidates) {
          const score = candidate.score + best[end - candidate.length]!;
          if (best[end] === 0 || score >= best[end]!) {
            best[end] = score;
            words[end] = candidate.id;
          }
        }
      }
    }
    const reversed: number[] = [];
    for (let position = n; position > 0; ) {
      const id = words[position]!;
      reversed.push(id);
      position -= this.#vocabulary[id]![0].length;
    }
    const ids: number[] = [];
    let previousUnknown = false;
    for (const id of reversed) {
      if (!(previousUnknown && id === 0)) ids.push(id);
      previousUnknown = id === 0;
    }
    return ids.reverse();
  }
}
