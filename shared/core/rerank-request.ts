/** Which end of a text a cut keeps: `right` cuts the end (keeps the start), `left` cuts the start (keeps the end). */
export type TruncationSide = 'left' | 'right';

/** A candidate document: the text that is scored, and the object the client sent when it sent one. */
export interface RerankDocument {
  readonly text: string;
  /** The client's original object (Cohere/Jina accept `{text, ...}`); returned as-is when documents are asked for. */
  readonly source?: Readonly<Record<string, unknown>>;
  /**
   * Contextual AI's per-document `metadata` (a date, a source, a type): given to the model with its document, so an
   * instruction can refer to it. Bounded as a document is (RERANK_MAX_DOCUMENT_CHARS) and counted in the request's size.
   */
  readonly metadata?: string;
}

/**
 * What the model reads of a document: its text, after its metadata when it has some. Metadata first, so a cut to
 * `max_tokens_per_doc` (which keeps a document's start) keeps it, as Contextual counts "a document with its metadata".
 */
export const scoredText = (document: RerankDocument): string =>
  document.metadata === undefined || document.metadata === '' ? document.text : `${document.metadata}\n\n${document.text}`;

/**
 * How a raw model score becomes the returned score. `logit`: on the logit scale, as NVIDIA NIM answers - a logit
 * scorer's own output, a calibrated scorer's probability as its log-odds, a similarity as it is (resolveActivation).
 */
export type ScoreActivation = 'sigmoid' | 'none' | 'logit';

/** ZeroEntropy's `latency`: `fast` = synchronous only, `slow` = may run as a job. */
export type LatencyTier = 'fast' | 'slow';

/** The RAG tool's strategies: none (input order), default (the model), boost, hybrid, llm_rerank. */
export type RerankStrategy = 'none' | 'default' | 'boost' | 'hybrid' | 'llm_rerank';

/**
 * The boost rule (strategy `boost`): after the model's score is activated to [0,1], each document gains
 * `termWeight` x (share of boost terms it contains) plus the weight of every metadata field that equals
 * the given value. Scores may then exceed 1; the order is what boosting is for.
 */
export interface BoostRule {
  readonly terms: readonly string[];
  readonly termWeight: number;
  readonly fields: readonly { readonly field: string; readonly value: string | number | boolean; readonly weight: number }[];
}

/** An upstream rerank API this request delegates scoring to (the RAG tool's external provider). */
export interface UpstreamReranker {
  readonly apiUrl: string;
  readonly apiKey: string | undefined;
  readonly mode: 'openai' | 'dashscope' | 'chat';
  readonly model: string | undefined;
  readonly timeoutMs: number;
}

/** The one request every dialect parses into. Field names follow the domain, not any wire format. */
export interface RerankRequest {
  readonly model: string | undefined;
  readonly query: string;
  readonly documents: readonly RerankDocument[];
  /** Absent = every result. */
  readonly topN: number | undefined;
  readonly returnDocuments: boolean;
  /** Results scoring below this (after activation) are dropped. */
  readonly threshold: number | undefined;
  /** Chunk size when the request is fanned out over the queue. */
  readonly batchSize: number | undefined;
  /** `undefined` = the scorer's default (sigmoid for logits, as hosted APIs return [0,1] scores). */
  readonly activation: ScoreActivation | undefined;
  /**
   * A task instruction for scorers that take one (the LLM yes/no family's template): `instruction` (vLLM, Contextual AI)
   * on /v1/rerank, /v2/rerank, /score, the chat `prompt`, DashScope `parameters.instruct`.
   */
  readonly prompt: string | undefined;
  /** Absent = `default`. */
  readonly strategy?: RerankStrategy;
  readonly boost?: BoostRule;
  readonly upstream?: UpstreamReranker;
  /** When scoring fails, answer the input order (flagged) instead of an error. */
  readonly fallbackToInputOrder?: boolean;
  /** Cohere's long-document handling: split each document into at most this many chunks; its score is the best chunk's. */
  readonly maxChunksPerDoc?: number;
  /** Cut queries/documents above the configured character limits instead of rejecting them (TEI's `truncate`). */
  readonly truncate?: boolean;
  /**
   * Score only each document's first this many tokens (Cohere's `max_tokens_per_doc`) of the model's own tokenizer,
   * where the scorer declares the control (Scorer.controls); unused and reported otherwise. Returned documents stay whole.
   */
  readonly maxTokensPerDocument?: number;
  /** Score only the query's first (or, `truncationSide: 'left'`, last) this many tokens of the model's tokenizer (vLLM). */
  readonly maxTokensPerQuery?: number;
  /**
   * Which end a cut keeps, for the token caps and the model's own window alike (TEI `truncation_direction`, vLLM
   * `truncation_side`): `right` (the default) keeps the start, `left` keeps the end.
   */
  readonly truncationSide?: TruncationSide;
  /**
   * ZeroEntropy's latency tier: `fast` is answered synchronously or refused (413 naming `slow`), never run as a job;
   * `slow` and absence behave alike (a request past the synchronous limits becomes a job and is waited for).
   */
  readonly latency?: LatencyTier;
  /**
   * Cohere v2's and vLLM's `priority` (lower = sooner there): accepted, and it changes nothing here, neither the order
   * requests are served in nor any score; reported unused (x-rerank-unused-controls).
   */
  readonly priority?: number;
  /** The client's body, for dialects that answer it back with fields added (the RAG pipeline dict). */
  readonly echo?: Readonly<Record<string, unknown>>;
}

/** A request with every option at its default; callers outside the dialects (jobs, tests, scripts) build on it. */
export function rerankRequest(
  query: string,
  documents: readonly RerankDocument[],
  options: Partial<Omit<RerankRequest, 'query' | 'documents'>> = {},
): RerankRequest {
  return {
    model: undefined,
    query,
    documents,
    topN: undefined,
    returnDocuments: false,
    threshold: undefined,
    batchSize: undefined,
    activation: undefined,
    prompt: undefined,
    ...options,
  };
}
