import type { CandidateSetFusion } from '../batches/candidate-set-fusion.js';
import { sigmoid } from '../core/score-activation.js';
import type { Scorer } from '../core/scorer.js';
import type { ScorerRegistry } from '../core/scorer-registry.js';
import { finiteRange, minMaxScale, type HybridScorer } from '../scoring/hybrid/index.js';

const isMinMaxHybrid = (scorer: Scorer): scorer is HybridScorer =>
  (scorer as Partial<HybridScorer>).fusion === 'minmax' && (scorer as Partial<HybridScorer>).lexical?.candidateRelative !== true;

/**
 * The min-max hybrid `modelId` as a CandidateSetFusion, with exactly its own arithmetic (sigmoid of a logit model,
 * minMaxScale per component, the weighted sum), so a corpus fused while streaming equals the hybrid over the whole
 * set. Undefined for any other model (rank fusion needs every rank at once).
 */
export function candidateSetFusionOf(scorers: ScorerRegistry, modelId: string): CandidateSetFusion | undefined {
  const scorer = scorers.ids().includes(modelId) ? scorers.get(modelId) : undefined;
  if (!scorer || !isMinMaxHybrid(scorer)) return undefined;
  const modelIsLogit = scorer.model.scoreKind === 'logit';
  const weight = scorer.weight;
  return {
    lexical: scorer.lexical,
    components: (modelRaw, lexical) => [modelIsLogit ? sigmoid(modelRaw) : modelRaw, lexical],
    fuse: ([model, lexical], [modelRange, lexicalRange]) =>
      weight * minMaxScale(model, modelRange) + (1 - weight) * minMaxScale(lexical, lexicalRange),
    widen: (range, value) => finiteRange([value], range),
  };
}
