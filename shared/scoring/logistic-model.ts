/**
 * A logistic regression fitted offline (scripts/eval/fit-fusion.ts) that turns request-independent
 * features of one (query, document) pair into an estimate of P(relevant): the scale every lexical and
 * hybrid score is served on, so a threshold means the same thing in every request.
 */
export interface LogisticModel {
  /** Feature names, in the order of `weights` (documentation and a guard against a stale vector). */
  readonly features: readonly string[];
  readonly weights: readonly number[];
  readonly bias: number;
  /** k of the saturated BM25 feature s / (s + k). */
  readonly saturation: number;
  /** Where the weights come from (script, data, date), for the README and the eval report. */
  readonly fittedOn: string;
}

/** sigmoid(bias + weights . features), computed so that large |z| neither overflows nor loses the tail. */
export function logisticProbability(model: LogisticModel, features: readonly number[]): number {
  if (features.length !== model.weights.length) {
    throw new RangeError(`logistic model expects ${model.weights.length} features (${model.features.join(', ')}), got ${features.length}`);
  }
  let z = model.bias;
  for (let i = 0; i < features.length; i++) z += model.weights[i]! * features[i]!;
  return z >= 0 ? 1 / (1 + Math.exp(-z)) : Math.exp(z) / (1 + Math.exp(z));
}
