import type { ScoreBatch, Scorer } from '../core/scorer.js';
import { controlOptions } from '../core/control-options.js';
import type { TruncationSide } from '../core/request-controls.js';
import type { ChunkLedger, LedgerChunkScores } from './chunk-ledger.js';

/** What one chunk of a request is scored on: the request's query, instruction and token budget, and the chunk's texts. */
export interface ChunkToScore {
  readonly query: string;
  readonly texts: readonly string[];
  /** The request's instruction (chat `prompt`, DashScope `instruct`) for LLM rerankers. */
  readonly instruction?: string | undefined;
  /** The request's max_tokens_per_doc. */
  readonly maxDocumentTokens?: number | undefined;
  /** The request's max_tokens_per_query. */
  readonly maxQueryTokens?: number | undefined;
  /** The request's truncation side. */
  readonly truncationSide?: TruncationSide | undefined;
}

/**
 * The scoring of one chunk of the async engine, a job's (candidates inline in the task) and a batch line's (read from a
 * file range) alike: the request's controls applied exactly as the synchronous path applies them (controlOptions), and
 * one score per text or a throw (the queue then redelivers the task).
 */
export async function scoreChunk(scorer: Scorer, chunk: ChunkToScore, label: string): Promise<ScoreBatch> {
  const scored = await scorer.score(chunk.query, chunk.texts, controlOptions(scorer, chunk));
  if (scored.scores.length !== chunk.texts.length)
    throw new Error(`${label}: ${scored.scores.length} scores for ${chunk.texts.length} documents`);
  return scored;
}

/** Where in the ledger a request's chunks are counted: a batch's line, or a job (one request under its own owner). */
export interface LedgerRequest {
  readonly owner: string;
  readonly line: number;
  readonly chunkCount: number;
}

/**
 * Records a scored chunk exactly once and answers whether this call recorded it and whether the request's chunks are all in. A redelivered last chunk
 * answers true again, in case the first delivery died after counting: what runs next (a job's merge, a line's result)
 * is idempotent.
 */
export async function recordChunk(
  ledger: ChunkLedger,
  request: LedgerRequest,
  scores: LedgerChunkScores,
): Promise<{ recorded: boolean; complete: boolean }> {
  const counted = await ledger.putChunkScores(request.owner, request.line, scores, request.chunkCount);
  return { recorded: counted.recorded, complete: counted.chunksDone >= request.chunkCount };
}
