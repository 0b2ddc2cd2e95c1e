import { LEXICAL_FEATURE_NAMES, lexicalFeatureVector, type LexicalFeatures } from '../../shared/scoring/lexical/lexical-features.js';
import type { LogisticModel } from '../../shared/scoring/logistic-model.js';
import { fitConditionalLogit, fitLogistic, logLoss, meanReciprocalRank, type QueryGroup } from './logistic-fit.js';

/** One query's candidates as the lexical side sees them, and which one is relevant. */
export interface LexicalQuery {
  readonly lexical: readonly LexicalFeatures[];
  readonly relevant: number;
}

export const BM25_SATURATIONS = [1, 2, 4, 8, 16, 32, 64] as const;
const LAMBDA = 1;
const FOLDS = 3;

export interface Bm25Fit {
  /** LEXICAL_FEATURE_NAMES' weights, Platt-calibrated. */
  readonly weights: number[];
  readonly bias: number;
  /** k of s / (s + k), chosen by FOLDS-fold CV. */
  readonly saturation: number;
  readonly cvMrr: number;
  /** Calibrated log loss on the queries fitted on. */
  readonly logLoss: number;
}

/**
 * The `bm25` model's fit (shared/scoring/lexical/bm25-calibration.ts): per saturation k, the
 * cross-validated MRR@10 of a listwise fit (query i in fold i mod 3); the best k refitted on every query,
 * then Platt-scaled (sigmoid(a (w . x) + c (logQueryTerms) + b)) so the value is P(relevant) and the
 * order the listwise fit learned is kept. fit-fusion.ts fits the served one with it on every train
 * query; fit-default-fusion.ts refits it per leave-one-source-out fold. Deterministic.
 */
export function fitBm25Calibration(queries: readonly LexicalQuery[], onSaturation?: (saturation: number, cvMrr: number) => void): Bm25Fit {
  if (queries.length < FOLDS) throw new RangeError(`fitting bm25 needs at least ${FOLDS} queries, got ${queries.length}`);
  const groupsFor = (saturation: number): QueryGroup[] =>
    queries.map((q) => ({ rows: q.lexical.map((f) => lexicalFeatureVector(f, saturation)), relevant: q.relevant }));
  let best: { saturation: number; cvMrr: number } | undefined;
  for (const saturation of BM25_SATURATIONS) {
    const groups = groupsFor(saturation);
    let mrr = 0;
    for (let fold = 0; fold < FOLDS; fold++) {
      const w = fitConditionalLogit(
        groups.filter((_, i) => i % FOLDS !== fold),
        LAMBDA,
      );
      const held = groups.filter((_, i) => i % FOLDS === fold);
      mrr += meanReciprocalRank(w, held) * held.length;
    }
    const cvMrr = mrr / groups.length;
    onSaturation?.(saturation, cvMrr);
    if (best === undefined || cvMrr > best.cvMrr) best = { saturation, cvMrr };
  }
  const { saturation, cvMrr } = best!;
  const groups = groupsFor(saturation);
  const w = fitConditionalLogit(groups, LAMBDA);
  // The query's length is the same for all its candidates, so the listwise fit cannot weigh it; the
  // calibration step does (longer queries match less of a relevant document), without changing any order.
  const queryLength = LEXICAL_FEATURE_NAMES.indexOf('logQueryTerms');
  const z = groups.flatMap((g) => g.rows.map((row) => [row.reduce((sum, v, j) => sum + w[j]! * v, 0), row[queryLength]!]));
  const labels = groups.flatMap((g) => g.rows.map((_, i) => (i === g.relevant ? 1 : 0)));
  const platt = fitLogistic(z, labels, 0);
  const weights = w.map((v, j) => v * platt.weights[0]! + (j === queryLength ? platt.weights[1]! : 0));
  return { weights, bias: platt.bias, saturation, cvMrr, logLoss: logLoss(platt, z, labels) };
}

/** The fit as a served LogisticModel (weights rounded to 1e-6, as the generated files hold them). */
export function bm25Model(fit: Bm25Fit, fittedOn: string): LogisticModel {
  const round = (x: number): number => Math.round(x * 1e6) / 1e6;
  return { features: LEXICAL_FEATURE_NAMES, weights: fit.weights.map(round), bias: round(fit.bias), saturation: fit.saturation, fittedOn };
}
