import { normalizeResults } from '../core/normalize-results.js';
import type { ChunkScores, JobSpec, StoredResult } from './job-model.js';

export class IncompleteJobError extends Error {
  override readonly name = 'IncompleteJobError';
}

/** Puts every chunk's raw scores back at their global indices; a document without a score is an error. */
export function assembleChunkScores(spec: JobSpec, chunks: readonly ChunkScores[]): { scores: number[]; totalTokens: number } {
  const scores = new Array<number>(spec.documentCount).fill(Number.NaN);
  const filled = new Uint8Array(spec.documentCount);
  let totalTokens = 0;
  for (const chunk of chunks) {
    chunk.scores.forEach((score, i) => {
      scores[chunk.offset + i] = score;
      filled[chunk.offset + i] = 1;
    });
    totalTokens += chunk.tokens;
  }
  const missing = filled.indexOf(0);
  if (missing >= 0) throw new IncompleteJobError(`job ${spec.id}: no score for document ${missing}`);
  return { scores, totalTokens };
}

/**
 * Normalizes a job's final scores with the SAME function the synchronous path uses, so a job's
 * result equals the synchronous result exactly.
 */
export function rankJobScores(spec: JobSpec, scores: readonly number[], totalTokens: number): StoredResult {
  const ranked = normalizeResults(scores, {
    activation: spec.activation,
    topN: spec.topN,
    threshold: spec.threshold,
    documents: undefined,
  }).map((r) => [r.index, r.score] as const);
  return { ranked, totalTokens };
}
