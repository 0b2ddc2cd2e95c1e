export { createHybridScorer, type HybridFusion, type HybridScorer, type HybridScorerOptions } from './hybrid-scorer.js';
export {
  createDefaultHybridScorer,
  createFittedHybridScorer,
  isLexicalOrHybrid,
  type FittedHybridScorer,
  type FittedHybridScorerOptions,
  type LexicalFeatureSource,
} from './fitted-hybrid-scorer.js';
export { HYBRID_FEATURE_NAMES, hybridFeatureVector } from './fusion-features.js';
export { competitionRanks, fuseMinMax, fuseRrf, minMaxNormalize, RRF_K } from './score-fusion.js';
