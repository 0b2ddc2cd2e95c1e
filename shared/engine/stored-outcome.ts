import type { RankedResult, RerankOutcome } from '../core/rerank-outcome.js';
import type { RerankDocument } from '../core/rerank-request.js';
import type { RequestControl, TokenCuts } from '../core/request-controls.js';

export interface StoredScores {
  readonly id: string;
  readonly model: string;
  /** [document index, final score], best first: what a job or a batch request keeps after normalizeResults. */
  readonly ranked: readonly (readonly [number, number])[];
  readonly totalTokens: number;
  /** Candidates scored (RerankUsage.pairs): a job's document count (jobs never split documents). */
  readonly pairs?: number;
  /** The document at a request index, when the request asked for them back. */
  readonly documentOf?: (index: number) => RerankDocument | undefined;
  /** Wall time from submission to the end: a job's chunks were scored by many workers, so this is its scoring time too. */
  readonly wallMs: number;
  /** What the answer reports as scoring time; the wall time when absent (a poll reports 0: the client timed the wait). */
  readonly scoringMs?: number;
  /** Scores before activation, in input order, for the metrics (as the sync path's rawScores). */
  readonly rawScores?: readonly number[];
  /** What the model cut over the request's chunks (the ledger's, then the stored result's). */
  readonly cuts?: TokenCuts | undefined;
  /** Controls the request sent that its model has no use for (decided when it was planned). */
  readonly unusedControls?: readonly RequestControl[] | undefined;
}

/**
 * The outcome rebuilt from stored scores, for the dialect to format exactly as the synchronous path's: a job's poll,
 * its dialect endpoint and the metrics its end records, and a batch line's result, all read it from here.
 */
export function outcomeFromStored(stored: StoredScores): RerankOutcome {
  const results: RankedResult[] = stored.ranked.map(([index, score]) => {
    const document = stored.documentOf?.(index);
    return document ? { index, score, document } : { index, score };
  });
  return {
    id: stored.id,
    model: stored.model,
    results,
    usage: { totalTokens: stored.totalTokens, ...(stored.pairs === undefined ? {} : { pairs: stored.pairs }) },
    timings: { scoringMs: stored.scoringMs ?? stored.wallMs, totalMs: stored.wallMs },
    ...(stored.rawScores ? { rawScores: stored.rawScores } : {}),
    ...(stored.cuts ? { cuts: stored.cuts } : {}),
    ...(stored.unusedControls?.length ? { unusedControls: stored.unusedControls } : {}),
  };
}
