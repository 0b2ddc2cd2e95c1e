export { createHybridScorer, type HybridFusion, type HybridScorer, type HybridScorerOptions } from './hybrid-scorer.js';
export { competitionRanks, fuseMinMax, fuseRrf, minMaxNormalize, RRF_K } from './score-fusion.js';
