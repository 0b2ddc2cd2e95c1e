/** One chunk's scores as a worker recorded them. */
export interface ChunkScores {
  readonly chunkIndex: number;
  readonly offset: number;
  /** Raw scorer output, in chunk order. */
  readonly scores: readonly number[];
  readonly tokens: number;
}

import type { TokenCuts } from '../core/request-controls.js';

/** One chunk's raw scores, in chunk order; a batch line fused over a corpus also keeps its lexical part per document. */
export interface LedgerChunkScores extends ChunkScores {
  /** What the model cut in this chunk, document indices the request's (at most MAX_STORED_CUTS listed); absent: nothing. */
  readonly cuts?: TokenCuts;
  readonly lexical?: readonly number[];
  /**
   * A pruned chunk (pruneChunkScores): `scores[i]` is the score of the chunk's document at position `positions[i]`
   * (ascending), the only ones that can still reach the request's top_n; `count` documents were scored. Absent: every
   * document's score, in chunk order.
   */
  readonly positions?: readonly number[];
  readonly count?: number;
}

export interface ChunkRecorded {
  /** False when this chunk was already recorded (a second delivery): nothing changed. */
  readonly recorded: boolean;
  /**
   * Chunks of the request counted so far: reaches the chunk count exactly when the last one is counted (and on every
   * later call). Before that an adapter that counts a large request on several items may answer a lower bound.
   */
  readonly chunksDone: number;
}

/**
 * Where the chunks of one request are recorded and counted, exactly once each, whatever the deliveries: a batch
 * line's chunks and an async job's chunks (a job is one request, kept under its own key) go through this one
 * protocol. No item takes every chunk's write: a large request counts on counters spread over partitions.
 */
export interface ChunkLedger {
  /**
   * Records a chunk's scores exactly once: a chunk delivered twice counts once, and a finished request's chunks are
   * not counted. `chunkCount` is the request's (its plan's): adapters spread a large request's counts by it.
   */
  putChunkScores(owner: string, line: number, scores: LedgerChunkScores, chunkCount: number): Promise<ChunkRecorded>;
  /** A request's chunk scores in chunk order, one chunk at a time (`chunkCount` as given to putChunkScores, when known). */
  readChunkScores(owner: string, line: number, chunkCount?: number): AsyncIterable<LedgerChunkScores>;
  /** Drops a finished request's chunk scores (its result holds what is kept); the counts stay until they expire. */
  deleteChunkScores(owner: string, line: number, chunkCount?: number): Promise<void>;
  /** Chunks counted so far (exact: every counter is read), for progress. */
  countChunks(owner: string, line: number, chunkCount: number): Promise<number>;
}

/**
 * A job in the ChunkLedger: one request (line 1) under its own owner key, apart from every batch (whose ids start
 * `batch_`), so its chunks are counted on the same sharded counters as a batch line's.
 */
export const jobLedgerOwner = (jobId: string): string => `job:${jobId}`;
export const JOB_LEDGER_LINE = 1;
