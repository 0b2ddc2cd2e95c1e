/**
 * Per-key batch quotas and engine bounds. Defaults are documented in README ("Batches"); every one is
 * configurable (RERANK_BATCH_* variables, read in config).
 */
export interface BatchLimits {
  /** Batches a key may have not yet finished (validating .. finalizing); past it create is a 429. */
  readonly maxRunningBatches: number;
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
}

export const DEFAULT_BATCH_LIMITS: BatchLimits = {
  maxRunningBatches: 10,
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
};

/** The quotas operators set, by environment variable (README "Configuration"). */
const BATCH_LIMIT_ENV = {
  RERANK_BATCH_MAX_RUNNING: 'maxRunningBatches',
  RERANK_BATCH_MAX_LINES: 'maxLinesPerBatch',
  RERANK_BATCH_MAX_CORPUS_DOCUMENTS: 'maxCorpusDocuments',
  RERANK_BATCH_MAX_RESULTS_WITHOUT_TOP_N: 'maxCorpusResultsWithoutTopN',
} as const satisfies Record<string, keyof BatchLimits>;

/** DEFAULT_BATCH_LIMITS with the operator's settings; a setting that is not a positive integer is a start-up error. */
export function batchLimitsFromEnv(env: Readonly<Record<string, string | undefined>>): BatchLimits {
  const limits: Record<string, number> = { ...DEFAULT_BATCH_LIMITS };
  for (const [name, field] of Object.entries(BATCH_LIMIT_ENV)) {
    const raw = env[name];
    if (raw === undefined || raw === '') continue;
    const value = Number(raw);
    if (!Number.isSafeInteger(value) || value < 1) throw new Error(`${name} must be a positive integer, got '${raw}'`);
    limits[field] = value;
  }
  const days = env['RERANK_FILE_RETENTION_DAYS'];
  if (days !== undefined && days !== '') {
    const value = Number(days);
    if (!Number.isSafeInteger(value) || value < 1) throw new Error(`RERANK_FILE_RETENTION_DAYS must be a positive integer, got '${days}'`);
    limits['outputRetentionSeconds'] = value * 86_400;
  }
  return limits as unknown as BatchLimits;
}
