import { ENGLISH_STOPWORDS } from './english-stopwords.js';

export interface LexicalTokenizerOptions {
  /** Drop ENGLISH_STOPWORDS (default true). Only whole-word tokens are checked, never CJK bigrams. */
  readonly stopwords?: boolean;
}

/** Scripts written without spaces between words (plus Hangul, as Lucene's CJKAnalyzer does). */
const CJK = String.raw`\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}`;
/**
 * Either a run of CJK characters, or a run of letters/digits/combining marks that are NOT CJK
 * (the lookahead keeps "abc漢字" from becoming one word). Everything else (spaces, punctuation,
 * symbols, '_', '-', apostrophes) separates tokens.
 */
const TOKEN = new RegExp(String.raw`[${CJK}]+|(?:(?![${CJK}])[\p{L}\p{N}\p{M}])+`, 'gu');
const CJK_RUN = new RegExp(String.raw`^[${CJK}]`, 'u');

/**
 * The lexical scorer's tokenizer, deterministic and locale-independent:
 * 1. NFKC normalization (full-width letters, ligatures and compatibility forms fold to plain ones),
 *    then `toLowerCase()` (Unicode default case mapping, not the host locale's).
 * 2. Words = maximal runs of Unicode letters (\p{L}), digits (\p{N}) and marks (\p{M}); no stemming.
 * 3. CJK runs (Han, Hiragana, Katakana, Hangul) become overlapping character bigrams, as Lucene's
 *    CJKBigramFilter does, since those scripts do not separate words with spaces; a lone CJK
 *    character is its own token.
 * 4. Optionally drops English stopwords.
 */
export function tokenizeLexical(text: string, options: LexicalTokenizerOptions = {}): string[] {
  const dropStopwords = options.stopwords ?? true;
  const tokens: string[] = [];
  for (const match of text.normalize('NFKC').toLowerCase().matchAll(TOKEN)) {
    const run = match[0];
    if (CJK_RUN.test(run)) {
      const chars = Array.from(run); // code points, not UTF-16 units (CJK extension B is astral)
      if (chars.length === 1) tokens.push(run);
      for (let i = 0; i + 1 < chars.length; i++) tokens.push(chars[i]! + chars[i + 1]!);
    } else if (!(dropStopwords && ENGLISH_STOPWORDS.has(run))) {
      tokens.push(run);
    }
  }
  return tokens;
}
