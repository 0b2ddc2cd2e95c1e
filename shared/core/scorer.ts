import type { DocumentAnalysis } from './document-analysis.js';
import type { RequestControl, TokenCuts, TruncationSide } from './request-controls.js';

/** What every scorer returns for one (query, documents) call. */
export interface ScoreBatch {
  /** Raw model output per document, in input order (cross-encoder logits, cosine, BM25, ...). */
  readonly scores: number[];
  /** Tokens the model consumed (query + document pairs after truncation); 0 for token-free scorers. */
  readonly tokens: number;
  /** What was cut to the token caps or to the model's window (reported to the client); absent when nothing was. */
  readonly cuts?: TokenCuts | undefined;
}

/** Per-request inputs some scorers take besides the texts. */
export interface ScoreOptions {
  /**
   * The request's instruction (`prompt` / `instruct`): LLM rerankers put it in their prompt template;
   * scorers without one ignore it.
   */
  readonly instruction?: string | undefined;
  /**
   * The request's deadline: model scorers check it between batches and, once aborted, stop and throw its
   * reason, so scoring never goes on after the caller was answered.
   */
  readonly signal?: AbortSignal | undefined;
  /** Only each document's first this many tokens are scored; honoured by scorers whose `controls` include max_tokens_per_doc. */
  readonly maxDocumentTokens?: number | undefined;
  /** Only the query's first this many tokens are scored (max_tokens_per_query). */
  readonly maxQueryTokens?: number | undefined;
  /** Which end every cut keeps (the caps and the model's window); absent = `right`, the start. */
  readonly truncationSide?: TruncationSide | undefined;
}

/**
 * The Scorer port: knows only texts. Dialects, queues and HTTP never reach past it.
 * Implementations load their model once and are reused across calls.
 */
export interface Scorer {
  /** The model id clients name in the `model` field. */
  readonly id: string;
  /** Raw score range kind, so the core can pick the right activation (sigmoid of a logit, or none). */
  readonly scoreKind: 'logit' | 'similarity';
  /** True when a 'similarity' score is a calibrated P(relevant) (a fitted logistic model): its log-odds are a logit. */
  readonly calibrated?: boolean;
  /**
   * True when a document's score depends on the other candidates (BM25 with the candidates' own statistics,
   * per-request min-max fusion).
   * Such scores cannot be computed chunk by chunk, so requests using them are never fanned out.
   */
  readonly candidateRelative?: boolean;
  /**
   * Seconds scoring these texts would take here, from the scorer's measured pace (token models); undefined when it
   * cannot say yet. The planner sends a request estimated past the synchronous budget to a job. Linear in the text.
   */
  estimateSeconds?(query: string, documents: readonly string[]): number | undefined;
  /** True when score() cuts documents to ScoreOptions.maxDocumentTokens with the model's own tokenizer. */
  readonly countsTokens?: boolean;
  /**
   * The request controls this model's scoring uses (its tokenizer path applies the token caps and the side; its
   * template reads the instruction). A control not listed is accepted, left out and reported unused (/info, /v1/models).
   */
  readonly controls?: readonly RequestControl[];
  /** True when scores depend on ScoreOptions.instruction (LLM rerankers): such requests are scored whole, never chunked. */
  readonly usesInstruction?: boolean;
  score(query: string, documents: readonly string[], options?: ScoreOptions): Promise<ScoreBatch>;
  /**
   * Present when the model has a document-side representation (bi-encoders, background BM25, their fitted hybrid):
   * a corpus is analysed into stored shards once, and later queries score those (document-analysis.ts).
   */
  readonly documentAnalysis?: DocumentAnalysis;
  /** Releases native resources (ONNX sessions). */
  close?(): Promise<void>;
}

/**
 * A candidate-relative scorer whose per-document part can still be split: chunks are scored by `model`
 * alone, and the merge of a queued job applies `fuse` over the whole candidate set (a hybrid of a
 * model and a lexical scorer).
 */
export interface SplittableScorer extends Scorer {
  readonly model: Scorer;
  fuse(query: string, documents: readonly string[], modelScores: readonly number[]): Promise<number[]>;
}

/** A scorer whose candidate-relative part can be deferred to the merge of a queued job. */
export const isSplittableScorer = (scorer: Scorer): scorer is SplittableScorer =>
  typeof (scorer as Partial<SplittableScorer>).fuse === 'function' &&
  (scorer as Partial<SplittableScorer>).model?.candidateRelative !== true;

/** Whether a request's scores can be computed chunk by chunk (see Scorer.candidateRelative). */
export const isChunkable = (scorer: Scorer): boolean => !scorer.candidateRelative || isSplittableScorer(scorer);
