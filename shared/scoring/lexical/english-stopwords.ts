/**
 * Lucene's classic English stop set (EnglishAnalyzer.ENGLISH_STOP_WORDS_SET), 33 words. Kept small on
 * purpose: with IDF computed over a handful of candidates, a word like "the" that happens to appear in
 * one candidate would otherwise get a high IDF and decide the ranking.
 */
export const ENGLISH_STOPWORDS: ReadonlySet<string> = new Set([
  'a', 'an', 'and', 'are', 'as', 'at', 'be', 'but', 'by', 'for', 'if', 'in', 'into', 'is', 'it', 'no', 'not',
  'of', 'on', 'or', 'such', 'that', 'the', 'their', 'then', 'there', 'these', 'they', 'this', 'to', 'was',
  'will', 'with',
]);
