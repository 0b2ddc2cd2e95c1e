export { createHybridScorer, type HybridFusion, type HybridScorer, type HybridScorerOptions } from './hybrid-scorer.js';
export {
  createDefaultHybridScorer,
  createFittedHybridScorer,
  isLexicalOrHybrid,
  type FittedHybridScorer,
  type FittedHybridScorerOptions,
  type LexicalFeatureSource,
} from './fitted-hybrid-scorer.js';
export { HYBRID_FEATURE_NAMES, FUSION_FEATURE_NAMES, hybridFeatureVector, fusionFeatureVector } from './fusion-features.js';
export {
  competitionRanks,
  finiteRange,
  fuseMinMax,
  fuseRrf,
  minMaxNormalize,
  minMaxScale,
  RRF_K,
  type ScoreRange,
} from './score-fusion.js';
