// A frozen copy of shared/scoring/hybrid/use-lite-fusion.ts as served before the fine-tuned default (fitted on
// 2026-11-25 for the original USE-lite cosine): the 'previous default' baseline of npm run eval. Never refitted.
import type { LogisticModel } from '../../shared/scoring/logistic-model.js';

/** The previous `use-lite-bm25` fusion (original USE-lite cosine + lexical features). */
export const PREVIOUS_DEFAULT_FUSION: LogisticModel = {
  features: [
    'bm25Saturated',
    'logBm25',
    'coverage',
    'idfCoverage',
    'rarestMatched',
    'logQueryTerms',
    'logDocumentTerms',
    'cosine',
    'cosineSquared',
    'cosineTimesIdfCoverage',
  ],
  weights: [-3.596562, 1.425187, -0.05151, 1.071527, 0.304079, -1.640849, 0.174817, 2.499915, 1.802052, 1.490639],
  bias: -3.848863,
  saturation: 1,
  fittedOn:
    '18000 pairs (900 train queries x 20 candidates) from debian, info, wordnet; scripts/eval/fit-fusion.ts; listwise fit, k by 3-fold CV (MRR@10 0.666), Platt-calibrated',
};
