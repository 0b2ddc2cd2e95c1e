import { stemEnglish } from './english-stemmer.js';
import { ENGLISH_STOPWORDS } from './english-stopwords.js';

export interface LexicalTokenizerOptions {
  /** Drop ENGLISH_STOPWORDS (default true). Only whole-word tokens are checked, never CJK bigrams. */
  readonly stopwords?: boolean;
  /**
   * Reduce English words to their Porter2 stem (default true), so "enables" matches "enable". Every
   * lexical scorer, the background IDF table and the fitted features use the default; only the
   * evaluation-set miners turn it off, so the committed candidate sets stay the ones they were.
   */
  readonly stem?: boolean;
}

/** Scripts written without spaces between words (plus Hangul, as Lucene's CJKAnalyzer does). */
const CJK = String.raw`\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}`;
/**
 * Longest piece one match takes. V8's regex engine keeps a backtracking entry per character a greedy
 * quantifier consumed and overflows the stack on a run of ~10 million letters; a bounded quantifier
 * keeps it flat. A longer word is cut into pieces of this size (no real word is that long); a longer
 * CJK run is stitched back together (see tokenizeLexical), so its bigrams are exactly those of the run.
 */
const MAX_RUN = 256;
/**
 * Either a run of CJK characters, or a run of letters/digits/combining marks that are NOT CJK
 * (set subtraction, so "abc漢字" is two runs). Everything else (spaces, punctuation, symbols, '_',
 * '-', apostrophes) separates tokens.
 */
const TOKEN = new RegExp(String.raw`[${CJK}]{1,${MAX_RUN}}|[[\p{L}\p{N}\p{M}]--[${CJK}]]{1,${MAX_RUN}}`, 'gv');
const CJK_RUN = new RegExp(String.raw`^[${CJK}]`, 'u');

/**
 * The lexical scorer's tokenizer, deterministic and locale-independent:
 * 1. NFKC normalization (full-width letters, ligatures and compatibility forms fold to plain ones),
 *    then `toLowerCase()` (Unicode default case mapping, not the host locale's).
 * 2. Words = maximal runs of Unicode letters (\p{L}), digits (\p{N}) and marks (\p{M}); a run longer
 *    than MAX_RUN characters is cut into MAX_RUN-character tokens. Linear in the text, whatever it holds.
 * 3. CJK runs (Han, Hiragana, Katakana, Hangul) become overlapping character bigrams, as Lucene's
 *    CJKBigramFilter does, since those scripts do not separate words with spaces; a lone CJK
 *    character is its own token.
 * 4. Optionally drops English stopwords (checked before stemming: the list holds whole words).
 * 5. Optionally stems plain ASCII words with Porter2 (english-stemmer.ts); words in other scripts,
 *    with accents or digits stay as they are.
 */
export function tokenizeLexical(text: string, options: LexicalTokenizerOptions = {}): string[] {
  const dropStopwords = options.stopwords ?? true;
  const stem = options.stem ?? true;
  const tokens: string[] = [];
  // Where the last CJK piece ended (in the normalized text) and its last character: a piece that starts
  // there continues the same run, and the bigram across the cut is added.
  let cjkEnd = -1;
  let cjkLast = '';
  for (const match of text.normalize('NFKC').toLowerCase().matchAll(TOKEN)) {
    const run = match[0];
    if (CJK_RUN.test(run)) {
      const chars = Array.from(run); // code points, not UTF-16 units (CJK extension B is astral)
      const continues = match.index === cjkEnd;
      if (continues) tokens.push(cjkLast + chars[0]!);
      else if (chars.length === 1) tokens.push(run); // a lone character (a first piece is only this short when the run is)
      for (let i = 0; i + 1 < chars.length; i++) tokens.push(chars[i]! + chars[i + 1]!);
      cjkEnd = match.index + run.length;
      cjkLast = chars[chars.length - 1]!;
    } else if (!(dropStopwords && ENGLISH_STOPWORDS.has(run))) {
      tokens.push(stem ? stemEnglish(run) : run);
    }
  }
  return tokens;
}
