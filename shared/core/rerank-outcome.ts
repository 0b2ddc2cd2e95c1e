import type { RerankDocument } from './rerank-request.js';
import type { RequestControl, TokenCuts } from './request-controls.js';

export interface RankedResult {
  /** Position of the document in the request's list. */
  readonly index: number;
  readonly score: number;
  /** Present only when the request asked for documents. */
  readonly document?: RerankDocument;
}

export interface RerankUsage {
  /** Tokens the model consumed, query included once per pair (as hosted APIs count). */
  readonly totalTokens: number;
  /**
   * Candidates scored: one per document, one per chunk of a document split by max_chunks_per_doc. Per-search
   * billing counts these (Cohere's search units); absent where it was not recorded (then: the request's documents).
   */
  readonly pairs?: number;
}

export interface RerankTimings {
  readonly scoringMs: number;
  readonly totalMs: number;
}

/** The one outcome every dialect formats back into its own wire shape. */
export interface RerankOutcome {
  readonly id: string;
  readonly model: string;
  readonly results: readonly RankedResult[];
  readonly usage: RerankUsage;
  readonly timings: RerankTimings;
  /** Scores per document in input order, before normalization (RAG metadata `raw_scores`, telemetry); absent for jobs. */
  readonly rawScores?: readonly number[];
  /** True when scoring failed and the input order was returned instead (the request's `fallback`; header x-rerank-fallback). */
  readonly fallback?: boolean;
  /** What the model cut to the token caps or its window (header x-rerank-truncated, Cohere v2 `meta.warnings`). */
  readonly cuts?: TokenCuts;
  /** True when a queued job answered it (a job waited for on a rerank route, or polled): ZeroEntropy's `slow` tier. */
  readonly queued?: boolean;
  /** Controls the request sent that its model has no use for: accepted, left out of scoring (x-rerank-unused-controls). */
  readonly unusedControls?: readonly RequestControl[];
}
