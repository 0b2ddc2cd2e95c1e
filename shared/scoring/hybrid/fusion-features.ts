import { BM25_CALIBRATION } from '../lexical/bm25-calibration.js';
import { LEXICAL_FEATURE_NAMES, lexicalFeatureVector, type LexicalFeatures } from '../lexical/lexical-features.js';
import type { LogisticModel } from '../logistic-model.js';

/** Names of hybridFeatureVector's entries, in order. */
export const HYBRID_FEATURE_NAMES = [...LEXICAL_FEATURE_NAMES, 'cosine', 'cosineSquared', 'cosineTimesIdfCoverage'] as const;

/** Every feature a fitted fusion may use: the hybrid vector's plus bm25Logit, the served `bm25` model's logit. */
export const FUSION_FEATURE_NAMES = [...HYBRID_FEATURE_NAMES, 'bm25Logit'] as const;
export type FusionFeatureName = (typeof FUSION_FEATURE_NAMES)[number];

/**
 * Inputs of the fitted hybrid: the lexical vector plus the bi-encoder cosine, its square (the fit may
 * bend it) and its product with the
 * IDF-weighted coverage (a semantic match counts for more when the rare query words are there too).
 * All of it comes from the pair alone, never from the other candidates.
 */
export function hybridFeatureVector(lexical: LexicalFeatures, cosine: number, saturation: number): number[] {
  return [...lexicalFeatureVector(lexical, saturation), cosine, cosine * cosine, cosine * lexical.idfCoverage];
}

/** The `bm25` model's logit (before its sigmoid): the whole lexical side as one number, as served. */
function bm25Logit(lexical: LexicalFeatures, bm25: LogisticModel): number {
  const x = lexicalFeatureVector(lexical, bm25.saturation);
  return x.reduce((z, v, i) => z + bm25.weights[i]! * v, bm25.bias);
}

/**
 * The named features of a fitted fusion, in the order it lists them (its `features`): the fit picks a
 * subset by cross-validation (scripts/eval/fit-default-fusion.ts). Throws on a name it does not know,
 * so a model fitted on other features fails loudly rather than scoring on the wrong inputs.
 * `bm25` is the lexical model whose logit bm25Logit is: the served one, except in the leave-one-source-out
 * fit, which refits it per fold so that the held-out source's bm25Logit is out of sample.
 */
export function fusionFeatureVector(
  names: readonly string[],
  lexical: LexicalFeatures,
  cosine: number,
  saturation: number,
  bm25: LogisticModel = BM25_CALIBRATION,
): number[] {
  const hybrid = hybridFeatureVector(lexical, cosine, saturation);
  return names.map((name) => {
    if (name === 'bm25Logit') return bm25Logit(lexical, bm25);
    const i = (HYBRID_FEATURE_NAMES as readonly string[]).indexOf(name);
    if (i < 0) throw new RangeError(`unknown fusion feature '${name}' (known: ${FUSION_FEATURE_NAMES.join(', ')})`);
    return hybrid[i]!;
  });
}
