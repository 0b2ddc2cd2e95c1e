/**
 * Per-key batch quotas and engine bounds. Defaults are documented in docs/api.md ("Batches"); the quotas are
 * configurable (RERANK_BATCH_* variables, read once in config and laid over these by the runtime).
 */
export interface BatchLimits {
  /** Batches a key may have not yet finished (validating .. finalizing); past it create is a 429. */
  readonly maxRunningBatches: number;
  /**
   * Pairs (documents x query lines) a key's running batches may have queued at once, reserved line by line as the
   * planner sends them; past it the batch fails `token_limit_exceeded` (a key's own bound, `--max-queued-pairs`, wins).
   */
  readonly maxQueuedPairs: number;
  /** Request lines per input file (OpenAI's 50,000); past it the batch fails with `too_many_lines`. */
  readonly maxLinesPerBatch: number;
  /** Documents in one `documents_file_id` corpus; past it the line fails. */
  readonly maxCorpusDocuments: number;
  /** Results a corpus line returns without `top_n`; past it the line must set `top_n`. */
  readonly maxCorpusResultsWithoutTopN: number;
  /** Bytes of one input line (a request body is at most the API's body limit anyway). */
  readonly maxLineBytes: number;
  /** Bytes of one corpus line (one document). */
  readonly maxCorpusLineBytes: number;
  /** Estimated tokens per chunk task (estimatePairCost summed), and documents per chunk at most. */
  readonly chunkCost: number;
  readonly maxChunkDocuments: number;
  /** Seconds `completion_window: "24h"` gives. */
  readonly completionWindowSeconds: number;
  /** Bytes of documents one corpus line may return (`return_documents`): past it the line fails, never buffered whole. */
  readonly maxReturnedDocumentBytes: number;
  /** Output and error files expire this long after they are written (RERANK_FILE_RETENTION_DAYS, as uploads). */
  readonly outputRetentionSeconds: number;
  /**
   * Seconds one plan task plans before it checkpoints and queues the next one (RERANK_BATCH_PLAN_SLICE_SECONDS): planning
   * a 200 MB input is several invocations, none near the worker's timeout (the stack sets a third of it).
   */
  readonly planSliceSeconds: number;
  /**
   * Chunk tasks (or request plans) the planner gathers before it writes the plans, sends the tasks and checkpoints: a
   * round's writes and sends overlap, so fewer, larger rounds plan more lines a second (a failure re-plans one round).
   */
  readonly planFlushTasks: number;
  /**
   * Lines over one stored corpus (same file and model) whose chunks are planned together: each task reads one shard
   * once and scores it for the whole group (one matrix product), instead of one task per line per shard. Bounded so
   * the task that completes the group (it writes every line's result) stays far inside the worker's timeout; 1 = no
   * grouping.
   */
  readonly corpusGroupLines: number;
  /**
   * Consecutive stored shards one grouped task scores (its span): each line records one ledger item per span instead
   * of one per shard (~2 DynamoDB writes each), so a line over a million documents writes ~210 items, not ~3,400. A
   * span's first pass over a corpus encodes its shards one after another (at 1M short documents ~9,500 documents, about
   * 35 s of one vCPU), far inside the worker's timeout; 1 = a task per shard.
   */
  readonly corpusShardsPerTask: number;
  /**
   * Seconds a finalizer's lease on a batch lasts (renewed before each file it opens): longer than a finalize task runs
   * (the batch function's 15 minutes). The sweep sends a lost finalize again only once a claimed end has had no live
   * lease for this long.
   */
  readonly finalizeLeaseSeconds: number;
  /**
   * Documents a span's task analyses between two reports of its progress (CorpusAnalysisLedger), inside a shard too:
   * the analysis tells its progress after each model run (up to 64 documents) or 128 documents counted, so the batch's
   * `analysing_corpus` progress moves at most this plus one of those apart (500: well inside every 1,000 documents),
   * and its writes stay one per this many documents plus one per task.
   */
  readonly analysisProgressDocuments: number;
}

export const DEFAULT_BATCH_LIMITS: BatchLimits = {
  maxRunningBatches: 10,
  // 1,000 lines over a 1,000,000-document corpus, twice.
  maxQueuedPairs: 2_000_000_000,
  maxLinesPerBatch: 50_000,
  maxCorpusDocuments: 1_000_000,
  maxCorpusResultsWithoutTopN: 10_000,
  maxLineBytes: 6 * 1024 * 1024,
  maxCorpusLineBytes: 256 * 1024,
  chunkCost: 32_768,
  maxChunkDocuments: 1_024,
  completionWindowSeconds: 24 * 3600,
  maxReturnedDocumentBytes: 64 * 1024 * 1024,
  outputRetentionSeconds: 30 * 86_400,
  planSliceSeconds: 300,
  planFlushTasks: 640,
  corpusGroupLines: 64,
  corpusShardsPerTask: 16,
  finalizeLeaseSeconds: 20 * 60,
  analysisProgressDocuments: 500,
};
