import type { RerankError } from '../core/rerank-error.js';
import type { RerankOutcome } from '../core/rerank-outcome.js';
import type { RerankRequest } from '../core/rerank-request.js';
import type { RequestParamNames } from '../core/validate-request.js';
import type { JsonSchema } from './json-schema.js';
import type { WirePath } from './wire-field.js';

export type DialectName =
  | 'openai'
  | 'dashscope'
  | 'chat'
  | 'rag-tool'
  | 'llama-stack'
  | 'pipeline'
  | 'cohere-v2'
  | 'voyage'
  | 'tei'
  | 'nim'
  | 'vllm-score'
  | 'mixedbread'
  | 'vertex'
  | 'zeroentropy'
  // Hosted shapes: Amazon Bedrock, Pinecone, Weaviate.
  | 'bedrock'
  | 'bedrock-invoke'
  | 'pinecone'
  | 'weaviate';

export interface DialectContext {
  readonly requestId: string;
  /** Unix seconds, for the fields clients expect (`created`). */
  readonly now: number;
}

export interface DialectResponse {
  readonly status: number;
  readonly body: unknown;
  /** Headers the wire format puts beside its body (Bedrock's `x-amzn-ErrorType`, which AWS SDKs raise an exception by). */
  readonly headers?: Readonly<Record<string, string>>;
  /** When the client asked for server-sent events (chat `stream: true`): sent as `data:` lines instead of `body`. */
  readonly events?: readonly unknown[];
}

/** Where a body names a corpus file (`documents_file_id`) and where the documents it stands for would be. */
export interface CorpusPaths {
  readonly fileIdPath: WirePath;
  readonly documentsPath: WirePath;
}

/** A Content-Type (or none) a dialect's clients send JSON under. */
export type UntypedJsonBody = 'none' | 'application/octet-stream';

/** The route prefixes an operator sets. */
export type RoutePrefixName = 'weaviate';

/** How a dialect served on another's path is told apart there. */
export interface SharedPath {
  readonly path: string;
  /** Recognised by its JSON-decoded body (TEI's `texts`, Bedrock's `queries` + `sources`). */
  readonly claims?: (body: unknown) => boolean;
  /**
   * Recognised by its headers (Pinecone's `X-Pinecone-Api-Version`, an AWS SigV4 signature), before the body is read
   * or the key checked: a refused key is answered in this dialect too. `header` looks a header up by its lower-case
   * name. Header claims are tried before body claims.
   */
  readonly claimsHeaders?: (header: (name: string) => string | undefined) => boolean;
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
   * Served on another dialect's path too, recognised there by its headers or by its body (TEI's `{query, texts}` on
   * OpenAI's `/rerank`): that route answers such a request, errors included, in this dialect.
   */
  readonly sharesPath?: SharedPath;
  /**
   * The path names the model (`{model}` in Bedrock's `/model/{model}/invoke`): that segment is read as the body's
   * `model`, replacing any sent there.
   */
  readonly modelInPath?: boolean;
  /**
   * Its `paths` are under a prefix the operator sets (`weaviate`: RERANK_WEAVIATE_PREFIX, CDK `rerank:weaviatePrefix`),
   * as the clients of a self-hosted container protocol are pointed at a base URL of the operator's choosing.
   */
  readonly underPrefix?: RoutePrefixName;
  /**
   * Content types besides `application/json` its clients send their JSON bodies under, read as JSON: `none` (Weaviate's
   * Go client, boto3's `invoke_model` without `contentType`), `application/octet-stream` (the AWS JS SDK's InvokeModel
   * default). Any other type is still refused (SECURITY.md: a missing type is CORS-simple).
   */
  readonly jsonBodyAlsoAs?: readonly UntypedJsonBody[];
  /**
   * A ready-to-send body: the OpenAPI request example `/docs` pre-fills, and what the tests send to a real server
   * (every example must be answered 200).
   */
  readonly example: Readonly<Record<string, unknown>>;
  /** Headers its clients send beside a body (Pinecone's API version): what claims a shared path by headers, sent with the example in tests. */
  readonly exampleHeaders?: Readonly<Record<string, string>>;
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
  /**
   * Where its clients put the service's key, when not `Authorization: Bearer <key>` (their `api_key`): named in a
   * 401, so the caller learns the fix for their own client (`Pinecone's clients send the key as Api-Key: <key>`).
   */
  readonly keyPlacement?: string;
  /** Set where a batch line may name its documents by a corpus file (the declared `documentsFileId` input). */
  readonly corpus?: CorpusPaths;
  /** The request body as JSON Schema: checked before `parse` runs, and published in `/openapi.json`. */
  readonly requestSchema: JsonSchema;
  /** The 200 body `formatOutcome` produces (documentation only). */
  readonly responseSchema: JsonSchema;
  /** The body `formatError` produces (documentation only). */
  readonly errorSchema: JsonSchema;
}
