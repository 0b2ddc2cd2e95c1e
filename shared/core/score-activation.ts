import type { Scorer } from './scorer.js';
import type { ScoreActivation } from './rerank-request.js';

export const sigmoid = (x: number): number => 1 / (1 + Math.exp(-x));

/** Logits become [0,1] scores like hosted APIs return; similarities are already comparable. */
export const defaultActivation = (scorer: Pick<Scorer, 'scoreKind'>): ScoreActivation =>
  scorer.scoreKind === 'logit' ? 'sigmoid' : 'none';
