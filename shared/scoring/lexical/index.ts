export { bm25Scores, createBm25Scorer, type Bm25Parameters, type Bm25Scorer, type Bm25ScorerOptions } from './bm25-scorer.js';
export { backgroundStatistics, defaultBackground, type BackgroundStatistics } from './background-idf.js';
export { ENGLISH_STOPWORDS } from './english-stopwords.js';
export { LEXICAL_FEATURE_NAMES, lexicalFeatureVector, lexicalFeatures, type LexicalFeatures } from './lexical-features.js';
export { tokenizeLexical, type LexicalTokenizerOptions } from './lexical-tokenizer.js';
