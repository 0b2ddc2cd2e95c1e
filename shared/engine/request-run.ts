import { RerankError } from '../core/rerank-error.js';
import { CutsTally } from '../core/request-controls.js';
import { UnknownModelError } from '../core/scorer-registry.js';
import type { ScoreBatch, Scorer } from '../core/scorer.js';
import { traced } from '../observability/tracer.js';
import type { ChunkLedger } from './chunk-ledger.js';
import { recordChunk, scoreChunk, type ChunkToScore, type LedgerRequest } from './chunk-scoring.js';
import { pruneChunkScores, type RankOptions } from './rank-chunk-scores.js';

/** One request of the async engine - a job, or a batch line - as the run of its chunks sees it. */
export interface RunRequest {
  /** Where its chunks are recorded and counted. */
  readonly ledger: LedgerRequest;
  /** The model its chunks are scored with. */
  readonly model: string;
  /** What a chunk keeps: only what can reach top_n; undefined keeps every score (a set fused at the end needs them all). */
  readonly prune: Pick<RankOptions, 'activation' | 'topN' | 'threshold'> | undefined;
  /** How a log or error names it ("job <id>", "line <n> of batch <id>"). */
  readonly label: string;
}

/**
 * What the run needs of the lane that owns a request (jobs/ and batches/ each implement it): where chunks are counted,
 * the scorers, how its request finishes - a job's finish writes its stored result, a batch line's keeps its result
 * line - and how it fails. Both are idempotent: a redelivered last chunk finishes again.
 */
export interface OwnerLane<R extends RunRequest> {
  readonly chunks: ChunkLedger;
  /** The scorer of a model id; throws UnknownModelError for one this process does not serve. */
  scorerFor(modelId: string): Scorer;
  /**
   * Its chunks are all in. `now`: finish in this call (the dead-letter recovery, whose message is the last word);
   * otherwise a lane may hand the finish to a task of its own (a job's finish task: its own timeout and retries).
   */
  finish(request: R, now?: boolean): Promise<void>;
  /** Ends the request failed: retrying cannot help it (an unknown model, an input that cannot be read). */
  fail(request: R, error: Error): Promise<void>;
  /**
   * The lexical part of a request fused over its whole set at its end (a batch line over a corpus): scored per chunk
   * beside the model, kept whole. Absent: nothing beside the model.
   */
  lexicalOf?(request: R, query: string, texts: readonly string[]): Promise<readonly number[] | undefined>;
}

/** A chunk of a request: where it sits in the candidate set, and what it scores. */
export interface RunChunk extends ChunkToScore {
  readonly index: number;
  /** Global index of its first candidate. */
  readonly offset: number;
}

/** One chunk's scores, and (a corpus fused over its whole set) the lexical part of each document. */
export type ChunkScored = ScoreBatch & { readonly lexical?: readonly number[] };

/**
 * The scorer of the request's model, or undefined once the request has failed for want of it: retrying cannot make an
 * unknown model appear, so the request fails now instead of after every delivery.
 */
export async function scorerOrFail<R extends RunRequest>(lane: OwnerLane<R>, request: R): Promise<Scorer | undefined> {
  try {
    return lane.scorerFor(request.model);
  } catch (error) {
    if (!(error instanceof UnknownModelError)) throw error;
    await lane.fail(request, new RerankError('internal', `model '${request.model}' is not loaded by the workers`));
    return undefined;
  }
}

/**
 * The run of one chunk of a running request (the lane has checked it is still running): its model, the score, then
 * recordScored; true when this call recorded the chunk. A throw reports the message as failed, so the queue redelivers
 * it; its rescored chunk is recorded once.
 */
export async function runChunk<R extends RunRequest>(lane: OwnerLane<R>, request: R, chunk: RunChunk): Promise<boolean> {
  const scorer = await scorerOrFail(lane, request);
  if (!scorer) return false;
  const label = `chunk ${chunk.index} of ${request.label}`;
  const scored = await traced('scoring', () => scoreChunk(scorer, chunk, label), { request: request.label });
  const lexical = await lane.lexicalOf?.(request, chunk.query, chunk.texts);
  return recordScored(lane, request, chunk, lexical ? { ...scored, lexical } : scored);
}

/**
 * A scored chunk pruned to what can reach the request's top_n, recorded exactly once; the call whose chunk completes
 * the request finishes it (a redelivered last chunk finishes again: finishing is idempotent). True when this call
 * recorded the chunk.
 */
export async function recordScored<R extends RunRequest>(
  lane: OwnerLane<R>,
  request: R,
  chunk: Pick<RunChunk, 'index' | 'offset'>,
  scored: ChunkScored,
): Promise<boolean> {
  const pruned = request.prune && !scored.lexical ? pruneChunkScores(scored.scores, request.prune) : undefined;
  // What the model cut travels with the chunk's scores to the request's finish, which reports it (the sync path's cuts).
  const cuts = new CutsTally().add(scored.cuts, chunk.offset).cuts;
  const scores = {
    chunkIndex: chunk.index,
    offset: chunk.offset,
    tokens: scored.tokens,
    ...(pruned ?? { scores: scored.scores }),
    ...(scored.lexical ? { lexical: scored.lexical } : {}),
    ...(cuts ? { cuts } : {}),
  };
  const counted = await recordChunk(lane.chunks, request.ledger, scores);
  if (counted.complete) await lane.finish(request);
  return counted.recorded;
}

/**
 * The dead-letter recovery of a chunk that failed on every delivery. If its scores were recorded after all (its delete
 * was lost, or its visibility ran out while it was written) the request can still finish: it does when every chunk is
 * in, and otherwise the worker recording the last one finishes it. A chunk never recorded fails its request.
 */
export async function chunkDeadLettered<R extends RunRequest>(
  lane: OwnerLane<R>,
  request: R,
  chunkIndex: number | undefined,
  reason: string,
): Promise<void> {
  if (chunkIndex !== undefined && (await isRecorded(lane.chunks, request.ledger, chunkIndex))) {
    const { owner, line, chunkCount } = request.ledger;
    if ((await lane.chunks.countChunks(owner, line, chunkCount)) >= chunkCount) await lane.finish(request, true);
    return;
  }
  await lane.fail(request, new ChunkDeadLetteredError(reason));
}

/** A chunk that failed on every delivery and was never recorded: its request fails with this reason. */
export class ChunkDeadLetteredError extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'ChunkDeadLetteredError';
  }
}

async function isRecorded(chunks: ChunkLedger, request: LedgerRequest, chunkIndex: number): Promise<boolean> {
  for await (const chunk of chunks.readChunkScores(request.owner, request.line, request.chunkCount)) {
    if (chunk.chunkIndex === chunkIndex) return true;
  }
  return false;
}
