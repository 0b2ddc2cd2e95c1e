import type { Scorer } from './scorer.js';
import type { ScoreActivation } from './rerank-request.js';

export const sigmoid = (x: number): number => 1 / (1 + Math.exp(-x));

/** Logits become [0,1] scores like hosted APIs return; similarities are already comparable. */
export const defaultActivation = (scorer: Pick<Scorer, 'scoreKind'>): ScoreActivation =>
  scorer.scoreKind === 'logit' ? 'sigmoid' : 'none';

/** Probabilities this close to 0 or 1 are held there, so a log-odds stays finite (about +/-36). */
const PROBABILITY_EDGE = Number.EPSILON;

/** log(p / (1 - p)): a probability back on the logit scale. */
export const logOdds = (p: number): number => {
  const held = Math.min(1 - PROBABILITY_EDGE, Math.max(PROBABILITY_EDGE, p));
  return Math.log(held / (1 - held));
};

/** A raw score after the (resolved) activation: what results are ranked, cut and answered by. */
export const activate = (activation: ScoreActivation, raw: number): number =>
  activation === 'sigmoid' ? sigmoid(raw) : activation === 'logit' ? logOdds(raw) : raw;

/**
 * The activation a request's choice comes to for this scorer: absent = its default; `logit` = a logit scorer's
 * output as it is, a calibrated probability's log-odds, an uncalibrated similarity as it is (it has no logit).
 */
export function resolveActivation(
  requested: ScoreActivation | undefined,
  scorer: Pick<Scorer, 'scoreKind' | 'calibrated'>,
): ScoreActivation {
  if (requested === undefined) return defaultActivation(scorer);
  if (requested === 'logit') return scorer.scoreKind === 'similarity' && scorer.calibrated === true ? 'logit' : 'none';
  return requested;
}
