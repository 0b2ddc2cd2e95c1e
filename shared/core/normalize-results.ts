import type { RankedResult } from './rerank-outcome.js';
import type { RerankDocument, ScoreActivation } from './rerank-request.js';
import { activate } from './score-activation.js';

export interface NormalizeOptions {
  readonly activation: ScoreActivation;
  /** Absent = all; 0 = none (the client asked for none); larger than the list = all. */
  readonly topN: number | undefined;
  /** Applied to the activated score; NaN never passes. */
  readonly threshold: number | undefined;
  /** When set, every result carries its document; when absent, none does (never `null`). */
  readonly documents: readonly RerankDocument[] | undefined;
}

/** JSON has no NaN or Infinity: clamp infinities to the largest finite number of the same sign. */
function finite(score: number): number {
  if (score === Infinity) return Number.MAX_VALUE;
  if (score === -Infinity) return -Number.MAX_VALUE;
  return score;
}

/** NaN ranks below every number; among numbers, higher is better; ties keep the input order. */
function compareRanked(a: { index: number; score: number }, b: { index: number; score: number }): number {
  const aNaN = Number.isNaN(a.score);
  const bNaN = Number.isNaN(b.score);
  if (aNaN !== bNaN) return aNaN ? 1 : -1;
  if (!aNaN && a.score !== b.score) return b.score - a.score > 0 ? 1 : -1;
  return a.index - b.index;
}

/**
 * The normalization step: the synchronous path, the async merge and every dialect go through it, so a score means
 * the same whichever path produced it.
 * `rawScores[i]` is the scorer's output for document i (raw logit, similarity, ...).
 */
export function normalizeResults(rawScores: ArrayLike<number>, options: NormalizeOptions): RankedResult[] {
  const { activation, topN, threshold, documents } = options;
  const scored: { index: number; score: number }[] = [];
  for (let index = 0; index < rawScores.length; index++) {
    const raw = rawScores[index] as number;
    scored.push({ index, score: activate(activation, raw) });
  }
  scored.sort(compareRanked);

  const kept = threshold === undefined ? scored : scored.filter((r) => r.score >= threshold);
  const limited = topN === undefined ? kept : kept.slice(0, Math.max(0, topN));

  // A NaN that survives (no threshold) is reported as the worst possible score, still last.
  const worst = activation === 'sigmoid' ? 0 : -Number.MAX_VALUE;
  return limited.map(({ index, score }) => {
    const result = { index, score: Number.isNaN(score) ? worst : finite(score) };
    if (!documents) return result;
    const document = documents[index];
    if (document === undefined) throw new RangeError(`no document for index ${index}`);
    return { ...result, document };
  });
}
