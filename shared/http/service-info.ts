import { controlsOf } from '../core/control-options.js';
import type { RequestControl } from '../core/request-controls.js';
import type { ServiceConfig } from '../config/service-config.js';
import { DEFAULT_MODEL_TARGET } from '../config/model-aliases-config.js';
import type { ScorerRegistry } from '../core/scorer-registry.js';

/** One served model as `GET /info` describes it. */
export interface ServedModelInfo {
  readonly id: string;
  readonly default: boolean;
  /** How it is served: an ONNX folder (cross-encoder, bi-encoder or LLM reranker), BM25, or a hybrid of two served models. */
  readonly kind: 'model folder' | 'lexical' | 'hybrid';
  /** Tokens per (query, document) pair the model reads (longer pairs are truncated); null when it has no token window. */
  readonly max_input_tokens: number | null;
  /** A hybrid's parts. */
  readonly components?: readonly string[];
  /** The request controls its scoring uses; any other a request sends is accepted, left out and reported unused. */
  readonly controls: readonly RequestControl[];
}

/** The service's version, as package.json has it (a unit test keeps them equal; bundles carry no package.json). */
export const SERVICE_VERSION = '0.1.0';

/**
 * `GET /info`: what this deployment serves and accepts, in one document. It is a valid TEI `Info`
 * (clients configured for a TEI reranker read `model_id`, `max_input_length`, `max_client_batch_size`),
 * followed by what TEI has no field for: every served model, the aliases clients may name, the limits.
 */
export interface ServiceInfo {
  readonly model_id: string;
  readonly model_sha: null;
  readonly model_dtype: string;
  readonly served_model_name: string;
  readonly model_type: {
    readonly reranker: { readonly id2label: Readonly<Record<string, string>>; readonly label2id: Readonly<Record<string, number>> };
  };
  readonly max_concurrent_requests: number;
  readonly max_input_length: number;
  readonly max_batch_tokens: number;
  readonly max_client_batch_size: number;
  readonly auto_truncate: boolean;
  readonly tokenization_workers: number;
  readonly version: string;
  /**
   * What TEI's two "tokens" fields count here. TEI counts tokens; a default model without a token window (BM25, the
   * USE-lite + BM25 hybrid) is bounded in characters, so those fields carry characters - said here, on the wire.
   */
  readonly units: { readonly max_input_length: 'tokens' | 'characters'; readonly max_batch_tokens: 'characters' };
  readonly models: readonly ServedModelInfo[];
  readonly aliases: Readonly<Record<string, string>>;
  readonly limits: Readonly<Record<string, number>>;
  readonly features: { readonly jobs: true; readonly batches: boolean; readonly files: boolean };
}

/** A scorer's token window when it has one (ONNX cross-encoders and LLM rerankers expose `maxLength`). */
function maxInputTokens(scorer: unknown): number | null {
  const value = (scorer as { maxLength?: unknown }).maxLength;
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0 ? value : null;
}

/** Built once at start-up from the configuration and the loaded models: the route answers a constant. */
export function serviceInfo(
  config: ServiceConfig,
  scorers: ScorerRegistry,
  enabled: { readonly batches: boolean; readonly files: boolean },
): ServiceInfo {
  const models = config.models.map((m): ServedModelInfo => {
    const scorer = scorers.get(m.id);
    const base = { id: m.id, default: m.id === scorers.defaultId, max_input_tokens: maxInputTokens(scorer), controls: controlsOf(scorer) };
    if (m.kind === 'hybrid') return { ...base, kind: 'hybrid', components: [m.model, m.lexical] };
    return { ...base, kind: m.kind === 'lexical' ? 'lexical' : 'model folder' };
  });
  const served = new Set(models.map((m) => m.id));
  const aliases = Object.fromEntries(
    [...config.modelAliases]
      .filter(([alias]) => !served.has(alias))
      .map(([alias, target]) => [alias, target === DEFAULT_MODEL_TARGET ? scorers.defaultId : target]),
  );
  const defaultWindow = models.find((m) => m.default)?.max_input_tokens ?? null;
  return {
    model_id: scorers.defaultId,
    model_sha: null,
    model_dtype: 'float32',
    served_model_name: scorers.defaultId,
    model_type: { reranker: { id2label: { '0': 'relevance' }, label2id: { relevance: 0 } } },
    max_concurrent_requests: config.localServer.maxConnections,
    // TEI counts tokens. A default without a token window (BM25, the hybrid) reads characters, and a
    // token is at least one character: the character limit is a bound a client can truncate to.
    max_input_length: defaultWindow ?? config.maxDocumentChars,
    max_batch_tokens: config.jobs.syncMaxChars,
    max_client_batch_size: config.maxDocuments,
    // Pairs longer than a model's token window are cut to it, as TEI does with auto-truncate.
    auto_truncate: true,
    tokenization_workers: 1,
    version: SERVICE_VERSION,
    units: { max_input_length: defaultWindow === null ? 'characters' : 'tokens', max_batch_tokens: 'characters' },
    models,
    aliases,
    limits: {
      max_documents: config.maxDocuments,
      sync_max_documents: config.jobs.syncMaxDocuments,
      sync_max_chars: config.jobs.syncMaxChars,
      max_query_chars: config.maxQueryChars,
      max_document_chars: config.maxDocumentChars,
      max_instruction_chars: config.maxInstructionChars,
      max_batch_size: config.maxBatchSize,
      default_batch_size: config.jobs.defaultBatchSize,
      max_body_bytes: config.maxBodyBytes,
      sync_timeout_ms: config.syncTimeoutMs,
    },
    features: { jobs: true, ...enabled },
  };
}
