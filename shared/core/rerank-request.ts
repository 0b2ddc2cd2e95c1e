/** A candidate document: the text that is scored, and the object the client sent when it sent one. */
export interface RerankDocument {
  readonly text: string;
  /** The client's original object (Cohere/Jina accept `{text, ...}`); returned as-is when documents are asked for. */
  readonly source?: Readonly<Record<string, unknown>>;
}

/** How a raw model score becomes the returned score. */
export type ScoreActivation = 'sigmoid' | 'none';

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
  /** Chat dialect: free text to guide the reranker; kept for scorers that take instructions. */
  readonly prompt: string | undefined;
}

export const DEFAULT_REQUEST_OPTIONS = {
  topN: undefined,
  returnDocuments: false,
  threshold: undefined,
  batchSize: undefined,
  activation: undefined,
  prompt: undefined,
} as const satisfies Partial<RerankRequest>;
