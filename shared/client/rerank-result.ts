/** `[index, score]`: `index` is the position in the documents passed to `rerank`. */
export type RankedPair = [index: number, score: number];

/** `[index, score, document]` when `includeDocs` is set. */
export type RankedDocument = [index: number, score: number, document: string];

export type RankedItem = RankedPair | RankedDocument;

export interface RerankUsage {
  readonly inputTokens?: number;
  readonly outputTokens?: number;
  readonly totalTokens?: number;
}

/** The one result shape of every mode: results sorted by score descending (negative scores included). */
export interface RerankResult<T extends RankedItem = RankedItem> {
  readonly results: T[];
  readonly usage: RerankUsage;
  /** The decoded reply body, when `returnRaw` was asked for. */
  readonly raw?: unknown;
}

export interface RerankOptions {
  /** Keep the best `topK` results (also sent to the server). `0` keeps none. */
  readonly topK?: number;
  /** Return `[index, score, document]` triples instead of pairs. */
  readonly includeDocs?: boolean;
  /** Ask for raw cross-encoder logits instead of [0,1] scores (`raw_scores`). */
  readonly rawScores?: boolean;
  /** Drop results scoring below this (sent as `rerank_threshold`, also applied here). */
  readonly threshold?: number;
  /** Chunk size for servers that batch (`batch_size`). */
  readonly batchSize?: number;
  /**
   * A task instruction for models that take one (the LLM reranker family): sent as `instruction` in OpenAI mode, the chat
   * `prompt`, DashScope `parameters.instruct`. A model without an instruction slot scores without it.
   */
  readonly instruction?: string;
  /** The older name of `instruction` (the chat and DashScope spellings); `instruction` wins when both are given. */
  readonly prompt?: string;
  /** Contextual AI's per-document metadata, one string per document (empty = none): OpenAI mode only (others refuse it). */
  readonly metadata?: readonly string[];
  /**
   * Token caps and the side a cut keeps (vLLM's `max_tokens_per_doc`, `max_tokens_per_query`, `truncation_side`), in the
   * served model's own tokens; a model without a tokenizer reports them unused. OpenAI mode only (others refuse them).
   */
  readonly maxTokensPerDoc?: number;
  readonly maxTokensPerQuery?: number;
  readonly truncationSide?: 'left' | 'right';
  /** Overrides the client's model for this call. */
  readonly model?: string;
  /** Attach the decoded reply body as `raw`. */
  readonly returnRaw?: boolean;
  /** Aborts the call (and any job wait it turned into); the promise rejects with the signal's reason. */
  readonly signal?: AbortSignal;
}

/** One scored candidate as a reply states it, before the client sorts, filters and shapes the list. */
export interface ScoredCandidate {
  readonly index: number;
  readonly score: number;
  readonly document?: string;
}

/** What a mode's parser reads from a reply body. */
export interface ParsedReply {
  readonly candidates: ScoredCandidate[];
  readonly usage: RerankUsage;
}
