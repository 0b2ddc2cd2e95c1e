import type { ParsedReply } from './rerank-result.js';

export type RerankModeName = 'openai' | 'dashscope' | 'chat';

/** What every mode turns into its own request body. */
export interface ModeRequest {
  readonly model?: string;
  readonly query: string;
  readonly documents: readonly string[];
  readonly topK?: number;
  readonly includeDocs: boolean;
  readonly rawScores?: boolean;
  readonly threshold?: number;
  readonly batchSize?: number;
  readonly prompt?: string;
  readonly metadata?: readonly string[];
  /** The token controls as the OpenAI-style body spells them (`max_tokens_per_doc`, ...). */
  readonly tokenControls?: Readonly<Record<string, number | string>>;
}

/** One wire dialect as the client speaks it (OpenAI/Jina/Cohere, DashScope, chat): where to post, what to send, how to read the reply. */
export interface RerankMode {
  readonly name: RerankModeName;
  /** The URL the mode posts to, derived from the configured base URL. */
  endpoint(baseUrl: string): string;
  buildBody(request: ModeRequest): Record<string, unknown>;
  /**
   * Reads the scored candidates of a successful reply. `documents` are the candidates that were sent
   * (chat replies may name documents by text); undefined when unknown, e.g. waiting on a job by id.
   */
  parseReply(body: unknown, documents: readonly string[] | undefined): ParsedReply;
}
