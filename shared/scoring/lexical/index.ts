export { bm25Scores, createBm25Scorer, type Bm25Parameters, type Bm25Scorer, type Bm25ScorerOptions } from './bm25-scorer.js';
export { ENGLISH_STOPWORDS } from './english-stopwords.js';
export { tokenizeLexical, type LexicalTokenizerOptions } from './lexical-tokenizer.js';
