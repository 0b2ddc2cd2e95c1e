import { LEXICAL_FEATURE_NAMES, lexicalFeatureVector, type LexicalFeatures } from '../lexical/lexical-features.js';

/** Names of hybridFeatureVector's entries, in order. */
export const HYBRID_FEATURE_NAMES = [...LEXICAL_FEATURE_NAMES, 'cosine', 'cosineSquared', 'cosineTimesIdfCoverage'] as const;

/**
 * Inputs of the fitted hybrid: the lexical vector plus the bi-encoder cosine, its square (the fit may
 * bend it) and its product with the
 * IDF-weighted coverage (a semantic match counts for more when the rare query words are there too).
 * All of it comes from the pair alone, never from the other candidates.
 */
export function hybridFeatureVector(lexical: LexicalFeatures, cosine: number, saturation: number): number[] {
  return [...lexicalFeatureVector(lexical, saturation), cosine, cosine * cosine, cosine * lexical.idfCoverage];
}
