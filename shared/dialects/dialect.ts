import type { RerankError } from '../core/rerank-error.js';
import type { RerankOutcome } from '../core/rerank-outcome.js';
import type { RerankRequest } from '../core/rerank-request.js';
import type { RequestParamNames } from '../core/validate-request.js';
import type { JsonSchema } from './json-schema.js';

export type DialectName = 'openai' | 'dashscope' | 'chat' | 'rag-tool' | 'llama-stack' | 'pipeline' | 'cohere-v2' | 'voyage' | 'tei'
  | 'nim' | 'vllm-score' | 'mixedbread' | 'vertex';

export interface DialectContext {
  readonly requestId: string;
  /** Unix seconds, for the fields clients expect (`created`). */
  readonly now: number;
}

export interface DialectResponse {
  readonly status: number;
  readonly body: unknown;
  /** When the client asked for server-sent events (chat `stream: true`): sent as `data:` lines instead of `body`. */
  readonly events?: readonly unknown[];
}

/**
 * A wire format: it knows HTTP body shapes and nothing about models, queues or storage.
 * `parse` receives the JSON-decoded body and throws RerankError on anything it cannot accept.
 */
export interface Dialect {
  readonly name: DialectName;
  /** The POST paths its rerank route is served on (each becomes a route, an OpenAPI operation and an API Gateway route). */
  readonly paths: readonly string[];
  /**
   * Served on another dialect's path too, recognised by its body there (TEI's `{query, texts}` on OpenAI's `/rerank`):
   * that route answers such a body, errors included, in this dialect.
   */
  readonly sharesPath?: { readonly path: string; readonly claims: (body: unknown) => boolean };
  /**
   * A ready-to-send body: the OpenAPI request example `/docs` pre-fills, and what the tests send to a real server
   * (every example must be answered 200).
   */
  readonly example: Readonly<Record<string, unknown>>;
  /** How this dialect spelled, in `request`'s body, the fields validateRerankRequest names (from its declaration). */
  paramNames(request: RerankRequest): RequestParamNames;
  parse(body: unknown): RerankRequest;
  /** `request` is absent when a queued job's outcome is formatted (only queueable dialects may rely on it being absent). */
  formatOutcome(outcome: RerankOutcome, context: DialectContext, request?: RerankRequest): DialectResponse;
  /** False for dialects whose reply needs the request itself (e.g. the pipeline dict): never queued as jobs. */
  readonly queueable?: boolean;
  /** True where the wire format defines the answer to no documents (the RAG tool answers an empty ranking). */
  readonly acceptsEmptyDocuments?: boolean;
  formatError(error: RerankError, context: DialectContext): DialectResponse;
  /** The request body as JSON Schema: checked before `parse` runs, and published in `/openapi.json`. */
  readonly requestSchema: JsonSchema;
  /** The 200 body `formatOutcome` produces (documentation only). */
  readonly responseSchema: JsonSchema;
  /** The body `formatError` produces (documentation only). */
  readonly errorSchema: JsonSchema;
}
