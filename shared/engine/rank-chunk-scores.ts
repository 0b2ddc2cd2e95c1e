import { normalizeResults } from '../core/normalize-results.js';
import { RerankError } from '../core/rerank-error.js';
import { CutsTally, type TokenCuts } from '../core/request-controls.js';
import type { RankedResult } from '../core/rerank-outcome.js';
import type { RerankDocument, ScoreActivation } from '../core/rerank-request.js';
import { TopNSelection } from './top-n-selection.js';
import type { ChunkLedger } from './chunk-ledger.js';
import type { LedgerRequest } from './chunk-scoring.js';

/** A request whose recorded chunks do not cover its candidates (or cannot be fused here): it fails with this reason. */
export class IncompleteRequestError extends RerankError {
  constructor(message: string) {
    super('internal', message);
    this.name = 'IncompleteRequestError';
  }
}

/** A hybrid model whose fusion this process cannot run (its scorers are not loaded here): the request fails, on either lane. */
export class CannotFuseHereError extends IncompleteRequestError {
  constructor(model: string, what: 'scores' | 'a corpus' = 'scores') {
    super(`model '${model}' cannot fuse ${what} here`);
    this.name = 'CannotFuseHereError';
  }
}

/** Fuses a request's model scores with its candidate-relative part over all candidates (SplittableScorer.fuse). */
export type ChunkFuser = (query: string, documents: readonly string[], modelScores: readonly number[]) => Promise<number[]>;

export interface RankOptions {
  /** The request's candidates: every one must have its score. */
  readonly total: number;
  readonly activation: ScoreActivation;
  readonly topN: number | undefined;
  readonly threshold: number | undefined;
  /**
   * A hybrid's fusion over the whole candidate set (an inline set: bounded by its request), applied to the model scores in
   * input order before ranking. Absent = the chunk scores are ranked as they are.
   */
  readonly fuse?: (modelScores: readonly number[]) => Promise<readonly number[]>;
  /** Sees every candidate's final raw score once (the job's metrics describe them all, as the sync path's do). */
  readonly onScore?: (index: number, raw: number) => void;
}

export interface SelectedScores {
  /** Global candidate indices of the survivors, ascending. */
  readonly indices: readonly number[];
  /** Their raw scores, in the same order. */
  readonly rawScores: readonly number[];
  readonly tokens: number;
  /** What the model cut over every chunk (bounded: CutsTally); absent when nothing was. */
  readonly cuts?: TokenCuts;
}

/**
 * The merge of a request's chunks, a job's or a batch line's: the ledger's chunks stream through a top-n heap (memory
 * O(top_n), whatever the candidate count) in normalizeResults' own order; a fused hybrid fuses once over the whole set
 * first. Every candidate must have exactly one score.
 */
export async function selectTopScores(ledger: ChunkLedger, request: LedgerRequest, options: RankOptions): Promise<SelectedScores> {
  const { total } = options;
  const selection = new TopNSelection({
    capacity: Math.min(options.topN ?? total, total),
    activation: options.activation,
    threshold: options.threshold,
  });
  const offer = (index: number, raw: number): void => {
    options.onScore?.(index, raw);
    selection.offer(index, raw);
  };
  const modelScores = options.fuse ? new Array<number>(total).fill(Number.NaN) : undefined;
  let tokens = 0;
  let seen = 0;
  const cuts = new CutsTally();
  for await (const chunk of ledger.readChunkScores(request.owner, request.line, request.chunkCount)) {
    cuts.add(chunk.cuts);
    const count = chunk.count ?? chunk.scores.length;
    if (chunk.offset < 0 || chunk.offset + count > total) {
      throw new IncompleteRequestError(
        `chunk ${chunk.chunkIndex} scores documents ${chunk.offset}..${chunk.offset + count - 1} of ${total}`,
      );
    }
    const { positions } = chunk;
    // A pruned chunk kept only what can reach top_n: exact for ranking, never for a fusion over the whole set.
    if (positions && modelScores)
      throw new IncompleteRequestError(`chunk ${chunk.chunkIndex} was pruned; its request fuses over every score`);
    chunk.scores.forEach((raw, i) => {
      const index = chunk.offset + (positions ? (positions[i] as number) : i);
      if (modelScores) modelScores[index] = raw;
      else offer(index, raw);
    });
    tokens += chunk.tokens;
    seen += count;
  }
  if (seen !== total) throw new IncompleteRequestError(`${seen} scores recorded for ${total} documents`);
  if (modelScores && options.fuse) (await options.fuse(modelScores)).forEach((score, index) => offer(index, score));
  const cut = cuts.cuts;
  return { ...selection.selected(), tokens, ...(cut ? { cuts: cut } : {}) };
}

/**
 * The survivors through the SAME normalizeResults as the synchronous path (final order, top_n, threshold, activation),
 * with their global indices and, when asked, their documents (`documentOf` by global index).
 */
export function rankSelected(
  selected: SelectedScores,
  options: Pick<RankOptions, 'activation' | 'topN' | 'threshold'>,
  documentOf?: (index: number) => RerankDocument,
): RankedResult[] {
  const documents = documentOf ? selected.indices.map(documentOf) : undefined;
  return normalizeResults(selected.rawScores, {
    activation: options.activation,
    topN: options.topN,
    threshold: options.threshold,
    documents,
  }).map((r) => ({
    ...r,
    index: selected.indices[r.index] as number,
  }));
}

/**
 * A chunk's scores cut to what can still reach its request's top_n: the chunk's own top-n in normalizeResults' order
 * (TopNSelection, the merge's own selection, threshold included), at their chunk positions. The merge then ranks the
 * same survivors it would have picked from every score, so a line's result is unchanged, while the ledger keeps
 * top_n scores a chunk instead of every document's (a million-document corpus line: its shards' top_n, not 1M). Chunks
 * whose request wants every score (no top_n, or top_n not below the chunk) are kept whole.
 */
export function pruneChunkScores(
  scores: readonly number[],
  options: Pick<RankOptions, 'activation' | 'topN' | 'threshold'>,
): { readonly positions: readonly number[]; readonly scores: readonly number[]; readonly count: number } | undefined {
  if (options.topN === undefined || options.topN >= scores.length) return undefined;
  const selection = new TopNSelection({ capacity: options.topN, activation: options.activation, threshold: options.threshold });
  scores.forEach((raw, position) => selection.offer(position, raw));
  const kept = selection.selected();
  return { positions: kept.indices, scores: kept.rawScores, count: scores.length };
}
