import { BM25_CALIBRATION } from '../lexical/bm25-calibration.js';
import type { LexicalFeatures } from '../lexical/lexical-features.js';
import type { LogisticModel } from '../logistic-model.js';
import { FUSION_FEATURE_NAMES, HYBRID_FEATURE_NAMES } from './fusion-features.js';

/**
 * logisticProbability(model, fusionFeatureVector(model.features, f, cosine, model.saturation, bm25)) with the feature
 * lookup done once: the same numbers in the same order, so the same double, bit for bit (a test holds it to that), but
 * no array per pair. A corpus query fuses every pair of the corpus: the per-pair arrays and name lookups were a third
 * of a 1,000-line batch's time over a stored corpus.
 */
export function compileFusion(
  model: LogisticModel,
  bm25: LogisticModel = BM25_CALIBRATION,
): (cosine: number, f: LexicalFeatures) => number {
  if (model.features.length !== model.weights.length) {
    throw new RangeError(
      `logistic model expects ${model.weights.length} features (${model.features.join(', ')}), got ${model.features.length}`,
    );
  }
  // Each named feature: its place in the hybrid vector, or -1 for bm25Logit.
  const slots = model.features.map((name) => {
    if (name === 'bm25Logit') return -1;
    const i = (HYBRID_FEATURE_NAMES as readonly string[]).indexOf(name);
    if (i < 0) throw new RangeError(`unknown fusion feature '${name}' (known: ${FUSION_FEATURE_NAMES.join(', ')})`);
    return i;
  });
  const weights = Float64Array.from(model.weights);
  const bm25Weights = Float64Array.from(bm25.weights);
  const { saturation, bias } = model;
  const hybrid = new Float64Array(HYBRID_FEATURE_NAMES.length);
  const bm25Lexical = new Float64Array(7);
  return (cosine, f) => {
    // hybridFeatureVector: lexicalFeatureVector(f, saturation), then cosine, its square, cosine x idfCoverage.
    const logBm25 = Math.log1p(f.bm25);
    const logQueryTerms = Math.log1p(f.queryTerms);
    const logDocumentTerms = Math.log1p(f.documentTerms);
    hybrid[0] = f.bm25 / (f.bm25 + saturation);
    hybrid[1] = logBm25;
    hybrid[2] = f.coverage;
    hybrid[3] = f.idfCoverage;
    hybrid[4] = f.rarestMatched;
    hybrid[5] = logQueryTerms;
    hybrid[6] = logDocumentTerms;
    hybrid[7] = cosine;
    hybrid[8] = cosine * cosine;
    hybrid[9] = cosine * f.idfCoverage;
    let z = bias;
    for (let i = 0; i < slots.length; i++) {
      const slot = slots[i]!;
      let x: number;
      if (slot >= 0) x = hybrid[slot]!;
      else {
        // bm25Logit: the bm25 model's own lexical vector (its saturation) through its weights, summed from its bias.
        x = bm25.bias;
        bm25Lexical[0] = f.bm25 / (f.bm25 + bm25.saturation);
        bm25Lexical.set(hybrid.subarray(1, 7), 1);
        for (let j = 0; j < bm25Lexical.length; j++) x += bm25Weights[j]! * bm25Lexical[j]!;
      }
      z += weights[i]! * x;
    }
    return z >= 0 ? 1 / (1 + Math.exp(-z)) : Math.exp(z) / (1 + Math.exp(z));
  };
}
