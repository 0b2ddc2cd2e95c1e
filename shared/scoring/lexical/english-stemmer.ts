import porter2 from 'wink-porter2-stemmer';

/**
 * Only plain lower-case ASCII words are English candidates: a word with an accent, another script,
 * a digit or a mark is left as it is, so other languages are never mangled by English suffix rules
 * (CJK never gets here: the tokenizer makes bigrams of it).
 */
const ENGLISH_WORD = /^[a-z]+$/;
/** Porter2 changes nothing below 3 letters; above this no English word needs stemming, and a long run of letters (a hash, base64) stays one token at no cost. */
const MIN_LETTERS = 3;
const MAX_LETTERS = 40;
/**
 * wink's stemmer is a chain of regular expressions (~5 us a new word on the bench machine, bench/lexical-analysis.md), while text
 * repeats its words (Zipf): a bounded memo makes the common case one Map lookup. Cleared when full
 * rather than LRU-ordered: O(1), and a caller sending unique words only ever pays the plain cost.
 */
const MEMO_LIMIT = 50_000;
const memo = new Map<string, string>();

/**
 * The Porter2 (Snowball English) stem of a lower-case token, e.g. enables -> enabl, enable -> enabl,
 * checksums -> checksum; anything that is not a plain English-looking word comes back unchanged.
 */
export function stemEnglish(token: string): string {
  if (token.length < MIN_LETTERS || token.length > MAX_LETTERS || !ENGLISH_WORD.test(token)) return token;
  let stem = memo.get(token);
  if (stem === undefined) {
    if (memo.size >= MEMO_LIMIT) memo.clear();
    stem = porter2(token);
    memo.set(token, stem);
  }
  return stem;
}
