import { asObject } from './json-object.js';

/**
 * A faster `pieces(text)` for tokenizers whose output is the concatenation of the outputs of the text's
 * space-separated chunks: "The cat sat." -> pieces("The") + pieces("cat") + pieces("sat."). Documents repeat
 * words, so each distinct chunk is tokenized once by the library's own normalizer, pre-tokenizer and model
 * (createChunkEncoder) and then read from a bounded cache.
 *
 * Why it pays (profile of @huggingface/tokenizers 0.2.0 on the bench documents, bert-base-uncased):
 * BertNormalizer ~26% (per-character regexes), WordPiece ~23%, pre-tokenizer ~8%, added-token splitting
 * ~6%, token -> id mapping ~5%, the rest glue. A cache hit skips all of them.
 *
 * When it holds (spaceChunkable checks it from tokenizer.json; everything else keeps the plain encode):
 * - The pre-tokenizer first splits on whitespace and drops it (BertPreTokenizer, Whitespace, WhitespaceSplit),
 *   optionally followed by a per-word Metaspace that prepends always (XLM-R's SentencePiece layout). A
 *   byte-level BPE (GPT-2, ModernBERT, Qwen) keeps the space inside the next word's token, so it never holds.
 * - The normalizer maps U+0020 to itself and never looks across it: BertNormalizer, Precompiled (control
 *   chars, whitespace map, NFKC), NF(K)C/NF(K)D, Lowercase, StripAccents. Unicode normalization does not
 *   compose or reorder across a space (a starter that composes with nothing); lowercase's only contextual
 *   rule, the Greek final sigma, looks past case-ignorable characters only, and a space is not one.
 * - No added token contains a space (the added-token splitter would otherwise match across chunks); the
 *   model does not fuse consecutive unknowns across words (fuse_unk); tokenizer_config asks for no
 *   remove_space / do_lowercase_and_remove_accent whole-text rewrites.
 * test/unit/scoring/space-chunk-pieces.parity.test.ts compares both paths on random Unicode text for every
 * tokenizer fixture in models/.
 */

/** Bounds of the chunk cache: caller text cannot grow it past these (see createSpaceChunkPieces). */
export interface ChunkCacheLimits {
  /** Entries per generation; the cache holds at most two generations. */
  readonly entriesPerGeneration: number;
  /** Chunks longer than this (UTF-16 code units) are tokenized every time, never cached. */
  readonly maxChunkLength: number;
  /** Chunks that yield more ids than this are not cached (NFKC can expand one character to 18). */
  readonly maxIdsPerChunk: number;
}

/**
 * Default bounds: <= 2 x 16,384 entries, each a key of <= 24 UTF-16 units and <= 24 ids: worst case about
 * 2 x 16,384 x (~70 B key + ~210 B ids + ~50 B map entry) ~ 11 MB per tokenizer; on the bench documents
 * (~2 ids per chunk) ~6 MB when full. One bench request of 256 documents has ~14k distinct chunks (uniformly
 * drawn words); real text repeats far more (Zipf), so a generation holds a few requests' vocabulary.
 */
const DEFAULT_CHUNK_CACHE_LIMITS: ChunkCacheLimits = { entriesPerGeneration: 16_384, maxChunkLength: 24, maxIdsPerChunk: 24 };

type Json = Record<string, unknown>;

const LOCAL_NORMALIZERS = new Set(['BertNormalizer', 'Precompiled', 'NFC', 'NFD', 'NFKC', 'NFKD', 'Lowercase', 'StripAccents']);
const WHITESPACE_SPLITTERS = new Set(['BertPreTokenizer', 'Whitespace', 'WhitespaceSplit']);

function normalizerIsLocal(normalizer: unknown): boolean {
  if (normalizer === null || normalizer === undefined) return true;
  const config = asObject(normalizer);
  if (config === undefined) return false;
  if (config.type === 'Sequence') return Array.isArray(config.normalizers) && config.normalizers.every(normalizerIsLocal);
  return typeof config.type === 'string' && LOCAL_NORMALIZERS.has(config.type);
}

/** Metaspace that prepends its replacement to every word (not only the first section) and replaces U+0020. */
function isPerWordMetaspace(config: Json): boolean {
  if (config.type !== 'Metaspace') return false;
  // @huggingface/tokenizers reads only prepend_scheme (default 'always'); 'first' depends on the section.
  const scheme = config.prepend_scheme ?? 'always';
  return scheme === 'always' || scheme === 'never';
}

function preTokenizerSplitsOnSpace(preTokenizer: unknown): boolean {
  const config = asObject(preTokenizer);
  if (config === undefined) return false;
  if (typeof config.type === 'string' && WHITESPACE_SPLITTERS.has(config.type)) return true;
  if (config.type !== 'Sequence' || !Array.isArray(config.pretokenizers)) return false;
  const [first, ...rest] = config.pretokenizers.map(asObject);
  // Later pre-tokenizers see one word at a time (Sequence maps each over the pieces of the previous one).
  return (
    first !== undefined &&
    typeof first.type === 'string' &&
    WHITESPACE_SPLITTERS.has(first.type) &&
    rest.every((p) => p !== undefined && isPerWordMetaspace(p))
  );
}

/** Whether pieces(text) equals the concatenation of pieces(chunk) over text.split(' ') for this tokenizer. */
export function spaceChunkable(tokenizerJson: Json, tokenizerConfig: Json): boolean {
  const model = asObject(tokenizerJson.model);
  if (model === undefined || model.fuse_unk === true) return false;
  if (tokenizerConfig.remove_space === true || tokenizerConfig.do_lowercase_and_remove_accent === true) return false;
  const added = Array.isArray(tokenizerJson.added_tokens) ? tokenizerJson.added_tokens : [];
  if (added.some((token) => /\s/u.test(String(asObject(token)?.content ?? '')))) return false;
  return normalizerIsLocal(tokenizerJson.normalizer) && preTokenizerSplitsOnSpace(tokenizerJson.pre_tokenizer);
}

/** The parts of an @huggingface/tokenizers 0.2.0 Tokenizer the chunk path uses (all public there). */
export interface ChunkTokenizer {
  encode(text: string, options: { add_special_tokens: boolean }): { ids: number[] };
  readonly normalizer: ((text: string) => string) | null;
  readonly pre_tokenizer: ((text: string, options?: { section_index?: number }) => string[]) | null;
  readonly model: ((words: string[]) => string[]) & { readonly tokens_to_ids: Map<string, number>; readonly unk_token_id?: number };
}

/** Printable ASCII without the space: every normalizer of LOCAL_NORMALIZERS leaves it as is or lowercases it. */
const PRINTABLE_ASCII = /^[\x21-\x7e]*$/;

/** What the normalizer does to printable ASCII ('lowercase' or 'identity'), or undefined when unsure. */
function asciiEffect(normalizer: unknown): 'lowercase' | 'identity' | undefined {
  if (normalizer === null || normalizer === undefined) return 'identity';
  const config = asObject(normalizer);
  if (config === undefined) return undefined;
  switch (config.type) {
    // clean_text drops control chars and maps whitespace, CJK spacing, NFD + Mn removal: none touches it.
    case 'BertNormalizer':
      return config.lowercase ? 'lowercase' : 'identity';
    case 'Lowercase':
      return 'lowercase';
    case 'Precompiled': // control chars, whitespace map, NFKC
    case 'NFC':
    case 'NFD':
    case 'NFKC':
    case 'NFKD':
    case 'StripAccents':
      return 'identity';
    case 'Sequence': {
      const effects = Array.isArray(config.normalizers) ? config.normalizers.map(asciiEffect) : [undefined];
      if (effects.includes(undefined)) return undefined;
      return effects.includes('lowercase') ? 'lowercase' : 'identity';
    }
    default:
      return undefined;
  }
}

/**
 * Encodes one chunk (no U+0020) as the library's encode_text does for a section without added tokens -
 * normalizer, pre-tokenizer (first section), model, token -> id exactly as Tokenizer.encode maps them -
 * without its per-call glue (added-token splitting, post-processor, attention mask): a cache miss costs
 * ~1.5x less. A chunk that holds an added token's text goes to the plain encode. Printable ASCII skips the
 * normalizer (its per-character regexes), which leaves such text as is or lowercased (asciiEffect).
 */
function createChunkEncoder(
  tokenizer: ChunkTokenizer,
  tokenizerJson: Json,
  plain: (text: string) => number[],
): (chunk: string) => number[] {
  const { normalizer, pre_tokenizer: preTokenizer, model } = tokenizer;
  const rawContents: string[] = [];
  const normalizedContents: string[] = [];
  // Same keys, in the same order, as Tokenizer's added_tokens_map (content, then normalized content).
  const addedIds = new Map<string, number>();
  for (const entry of Array.isArray(tokenizerJson.added_tokens) ? tokenizerJson.added_tokens : []) {
    const token = asObject(entry);
    if (token === undefined || typeof token.content !== 'string' || typeof token.id !== 'number') continue;
    addedIds.set(token.content, token.id);
    rawContents.push(token.content);
    if (token.normalized === true && normalizer !== null) {
      const normalized = normalizer(token.content);
      addedIds.set(normalized, token.id);
      normalizedContents.push(normalized);
    }
  }
  const ascii = asciiEffect(tokenizerJson.normalizer);
  return (chunk) => {
    if (rawContents.some((content) => chunk.includes(content))) return plain(chunk);
    let text: string;
    if (ascii !== undefined && PRINTABLE_ASCII.test(chunk)) text = ascii === 'lowercase' ? chunk.toLowerCase() : chunk;
    else text = normalizer === null ? chunk : normalizer(chunk);
    if (text.length === 0) return [];
    if (normalizedContents.some((content) => text.includes(content))) return plain(chunk);
    const words = preTokenizer === null ? [text] : preTokenizer(text, { section_index: 0 });
    return model(words).map((token) => (addedIds.get(token) ?? model.tokens_to_ids.get(token) ?? model.unk_token_id) as number);
  };
}

/**
 * The pieces function the scorer uses: the chunk cache when spaceChunkable, else the plain encode.
 */
export function createPiecesEncoder(
  tokenizer: ChunkTokenizer,
  tokenizerJson: Json,
  tokenizerConfig: Json,
  limits: ChunkCacheLimits = DEFAULT_CHUNK_CACHE_LIMITS,
): (text: string) => number[] {
  const plain = (text: string): number[] => tokenizer.encode(text, { add_special_tokens: false }).ids;
  if (!spaceChunkable(tokenizerJson, tokenizerConfig)) return plain;
  return createSpaceChunkPieces(createChunkEncoder(tokenizer, tokenizerJson, plain), limits).pieces;
}

/** pieces(text) through the chunk cache; cachedChunks is exposed so tests can check the bound. */
export interface SpaceChunkPieces {
  pieces(text: string): number[];
  readonly cachedChunks: number;
}

/**
 * pieces(text) via the chunk cache. `encodePlain` encodes one chunk (the library's encode without special
 * tokens, or createChunkEncoder); it is called for every chunk not in the cache (and every chunk too long
 * to cache).
 * The cache is two generations of Maps: lookups check the current one, then the previous one (promoting a
 * hit); when the current one is full it becomes the previous one and the old previous one is dropped. That
 * is LRU-like at O(1) per lookup, and bounded at 2 x entriesPerGeneration whatever callers send.
 */
export function createSpaceChunkPieces(
  encodePlain: (text: string) => number[],
  limits: ChunkCacheLimits = DEFAULT_CHUNK_CACHE_LIMITS,
): SpaceChunkPieces {
  let current = new Map<string, readonly number[]>();
  let previous = new Map<string, readonly number[]>();

  const lookup = (chunk: string): readonly number[] => {
    let ids = current.get(chunk);
    if (ids !== undefined) return ids;
    ids = previous.get(chunk) ?? encodePlain(chunk);
    if (ids.length <= limits.maxIdsPerChunk) {
      if (current.size >= limits.entriesPerGeneration) {
        previous = current;
        current = new Map();
      }
      // A copy, not the slice: V8 keeps a slice of 13+ characters as a view of the whole document, which a
      // cached key would keep alive (and the memory bound would no longer hold).
      current.set(chunk.length >= 13 ? chunk.split('').join('') : chunk, ids);
    }
    return ids;
  };

  const pieces = (text: string): number[] => {
    const out: number[] = [];
    let start = 0;
    while (start <= text.length) {
      let end = text.indexOf(' ', start);
      if (end < 0) end = text.length;
      const length = end - start;
      if (length > 0) {
        const chunk = text.slice(start, end);
        const ids = length <= limits.maxChunkLength ? lookup(chunk) : encodePlain(chunk);
        for (let i = 0; i < ids.length; i++) out.push(ids[i]!);
      }
      start = end + 1;
    }
    return out;
  };

  return {
    pieces,
    get cachedChunks() {
      return current.size + previous.size;
    },
  };
}
