import { isAbsolute, resolve } from 'node:path';
import { ENV_DEFAULTS, type EnvName, type NumericEnvName } from './env-vars.js';
import { defaultIntraOpThreads } from './lambda-vcpus.js';
import { ConfigError } from './config-error.js';
import { modelNamesConfig } from './model-aliases-config.js';

/**
 * One served model: an ONNX folder (cross-encoder or bi-encoder, told apart by its config.json), the
 * lexical BM25 scorer, or a hybrid of two other served models.
 */
export type ModelConfig =
  | { readonly id: string; readonly kind: 'folder'; readonly folder: string }
  | { readonly id: string; readonly kind: 'lexical' }
  | { readonly id: string; readonly kind: 'hybrid'; readonly model: string; readonly lexical: string };

export interface ServiceConfig {
  readonly models: readonly ModelConfig[];
  /** Plain Bearer keys accepted; empty = auth off (local development only). */
  readonly apiKeys: readonly string[];
  /** Bodies larger than this get 413 (Lambda's synchronous payload cap is 6 MB). */
  readonly maxBodyBytes: number;
  /** Longer request paths get 414 before routing. */
  readonly maxPathChars: number;
  /** The local server's socket limits (`npm start`; API Gateway has its own). */
  readonly localServer: {
    readonly headersTimeoutMs: number;
    readonly requestTimeoutMs: number;
    readonly maxConnections: number;
    /** RERANK_ALLOWED_HOSTS: Host names answered without keys besides those HOST implies (`*` = any). */
    readonly allowedHosts: readonly string[];
  };
  readonly maxDocuments: number;
  readonly maxBatchSize: number;
  readonly maxQueryChars: number;
  readonly maxDocumentChars: number;
  readonly maxInstructionChars: number;
  /** Scoring deadline of a synchronous request: 504 and scoring stopped past it. */
  readonly syncTimeoutMs: number;
  /** ONNX intra-op threads; on Lambda the vCPUs follow memory (1,769 MB = 1 vCPU). */
  readonly threads: number;
  /** Local key store file (memory backend; `npm run keys` writes it). */
  readonly keysFile: string;
  /** Defaults for client keys without their own limits; undefined = unlimited. */
  readonly rateLimitPerMinute: number | undefined;
  readonly maxConcurrentJobs: number | undefined;
  /** Hosts an upstream rerank provider (rerank_config.api_url) may point at; `*` = any; empty = none. */
  readonly upstreamAllowedHosts: readonly string[];
  /** Model names clients send (hosted APIs' names) -> a served model id or `default` (RERANK_MODEL_ALIASES). */
  readonly modelAliases: ReadonlyMap<string, string>;
  /** RERANK_STRICT_MODEL_NAMES: hosted names that are not served are refused instead of aliased. */
  readonly strictModelNames: boolean;
  /** RERANK_AUTH (on | off | auto): whether a local server may run without keys. */
  readonly auth: AuthSetting;
  readonly jobs: JobsConfig;
  readonly batches: BatchQuotasConfig;
  readonly files: FilesConfig;
}

/** The Files and Uploads APIs (RERANK_FILES_DIR, RERANK_FILE_*, RERANK_FILES_*). */
export interface FilesConfig {
  /** `npm start`'s file folder (the aws backend keeps files in S3). */
  readonly dir: string;
  /** The aws backend's files bucket (RERANK_FILES_BUCKET, set by the stack); undefined = no files, uploads or batches there. */
  readonly bucket: string | undefined;
  /** An S3 endpoint override (AWS_ENDPOINT_URL_S3: moto in tests) needs path-style addressing. */
  readonly s3PathStyle: boolean;
  readonly maxFileBytes: number;
  readonly maxFilesPerKey: number;
  readonly maxStoredBytesPerKey: number;
  readonly retentionSeconds: number;
}

/** Batch quotas per key and the retention of output files (RERANK_BATCH_*, RERANK_FILE_RETENTION_DAYS). */
export interface BatchQuotasConfig {
  readonly maxRunningBatches: number;
  /** Documents x query lines a key's running batches may have queued (RERANK_BATCH_MAX_QUEUED_PAIRS). */
  readonly maxQueuedPairs: number;
  readonly maxLinesPerBatch: number;
  readonly maxCorpusDocuments: number;
  readonly maxCorpusResultsWithoutTopN: number;
  readonly outputRetentionSeconds: number;
  /** Seconds one plan task runs before it hands over to the next (RERANK_BATCH_PLAN_SLICE_SECONDS). */
  readonly planSliceSeconds: number;
}

export interface JobsConfig {
  /** `memory`: in-process queue, store and workers (npm start). `aws`: DynamoDB + SQS. */
  readonly backend: 'memory' | 'aws';
  readonly tableName: string | undefined;
  readonly queueUrl: string | undefined;
  /** The batch task queue (RERANK_BATCH_QUEUE_URL, set by the stack); undefined = the aws backend serves no batches. */
  readonly batchQueueUrl: string | undefined;
  /** Requests with more documents than this (or more text than syncMaxChars) become queued jobs. */
  readonly syncMaxDocuments: number;
  readonly syncMaxChars: number;
  /** Chunk size when the request names none. */
  readonly defaultBatchSize: number;
  /** How long a dialect endpoint waits for a fanned-out job before answering 202 (below the API timeout). */
  readonly waitMs: number;
  readonly ttlSeconds: number;
  /** The chunk queue's MaximumMessageSize (SQS allows up to 1 MiB; the stack sets it explicitly). */
  readonly maxMessageBytes: number;
  /** In-process backend only: concurrent workers, deliveries before dead-letter, redelivery delay. */
  readonly workers: number;
  readonly maxReceiveCount: number;
  readonly retryDelayMs: number;
}

/**
 * What `npm start` serves with no configuration, best measured quality first (eval/report.md): the
 * hybrid of the USE-lite bi-encoder and BM25, then its parts, then the random-weight cross-encoder
 * fixture (real architecture, meaningless scores: for tests and speed figures).
 */
export const DEFAULT_MODEL_ID = 'use-lite-bm25';
export const FIXTURE_MODEL_ID = 'tinybert-l2-fixture';
export const FIXTURE_MODEL_SPEC = `${FIXTURE_MODEL_ID}=models/tinybert-l2-fixture`;
const DEFAULT_MODELS = `${DEFAULT_MODEL_ID}=hybrid:use-lite+bm25,use-lite=models/use-lite,bm25=lexical,${FIXTURE_MODEL_SPEC}`;

export { ConfigError } from './config-error.js';

type Env = Readonly<Record<string, string | undefined>>;

function positiveInt(env: Env, name: EnvName, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < 1) throw new ConfigError(`${name} must be a positive integer, got '${raw}'`);
  return value;
}

/** A positive integer setting whose default is in ENV_DEFAULTS. */
const setting = (env: Env, name: NumericEnvName): number => positiveInt(env, name, ENV_DEFAULTS[name]);

function optionalPositiveInt(env: Env, name: EnvName): number | undefined {
  const raw = env[name];
  return raw === undefined || raw === '' ? undefined : positiveInt(env, name, 1);
}

/**
 * RERANK_AUTH: `on` always asks for a key; `off` lets every caller in (local development only, never
 * with the aws backend); unset = `auto`: keys are required unless this is a local server that has never
 * had a key (no operator keys, no key file) - decided once at start-up, see decideOpenAccess.
 */
export type AuthSetting = 'on' | 'off' | 'auto';

function readAuthSetting(env: Env, backend: JobsConfig['backend']): AuthSetting {
  const raw = (env['RERANK_AUTH'] ?? '').trim().toLowerCase();
  if (raw === '' || raw === 'auto') return 'auto';
  if (raw !== 'on' && raw !== 'off') throw new ConfigError(`RERANK_AUTH must be on, off or auto, got '${raw}'`);
  if (raw === 'off' && backend === 'aws')
    throw new ConfigError('RERANK_AUTH=off is for the local server only; the aws backend always requires keys');
  return raw;
}

/** `id=hf:owner/name[@revision][:variant]` names a Hub repository (shared/scoring/model-pull/hub-model-spec.ts pulls it). */
export const HUB_PREFIX = 'hf:';

function parseModelSpec(id: string, spec: string, root: string): ModelConfig {
  if (spec === 'lexical' || spec === 'bm25') return { id, kind: 'lexical' };
  if (spec.startsWith(HUB_PREFIX)) {
    // Pulling is asynchronous and this parse is not: resolveHubModels runs first (npm start, cdk synth).
    throw new ConfigError(
      `RERANK_MODELS entry '${id}=${spec}' is a Hub repo id that was not pulled: resolveHubModels turns it into its cached folder first`,
    );
  }
  if (spec.startsWith('hybrid:')) {
    const [model, lexical, ...rest] = spec
      .slice('hybrid:'.length)
      .split('+')
      .map((p) => p.trim());
    if (!model || !lexical || rest.length > 0)
      throw new ConfigError(`RERANK_MODELS entry '${id}=${spec}' must be id=hybrid:<model id>+<lexical id>`);
    return { id, kind: 'hybrid', model, lexical };
  }
  return { id, kind: 'folder', folder: isAbsolute(spec) ? spec : resolve(root, spec) };
}

/**
 * `RERANK_MODELS=id=spec,...` where spec is a model folder (resolved against the code root: Lambda task
 * root or cwd), `lexical`, or `hybrid:<model id>+<lexical id>`. The first entry is the default model.
 */
function parseModels(raw: string | undefined, root: string): ModelConfig[] {
  const entries = raw === undefined || raw.trim() === '' ? DEFAULT_MODELS : raw;
  const models = entries
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean)
    .map((entry) => {
      const eq = entry.indexOf('=');
      if (eq <= 0 || eq === entry.length - 1) throw new ConfigError(`RERANK_MODELS entry '${entry}' must be id=folder`);
      return parseModelSpec(entry.slice(0, eq).trim(), entry.slice(eq + 1).trim(), root);
    });
  const ids = new Set(models.map((m) => m.id));
  if (ids.size !== models.length) throw new ConfigError('RERANK_MODELS has duplicate ids');
  for (const m of models) {
    if (m.kind === 'hybrid' && (!ids.has(m.model) || !ids.has(m.lexical))) {
      throw new ConfigError(`RERANK_MODELS: hybrid '${m.id}' names a model that is not listed`);
    }
  }
  return models;
}

/** The table of API keys, for a function that needs nothing else (the edge authorizer); undefined when unset. */
export function loadKeyTableName(env: Env = process.env): string | undefined {
  const table = env['RERANK_JOBS_TABLE']?.trim();
  return table === undefined || table === '' ? undefined : table;
}

/** Read and validate once per process; the first model listed is the default. */
export function loadServiceConfig(env: Env = process.env): ServiceConfig {
  const root = env['RERANK_CODE_ROOT'] ?? env['LAMBDA_TASK_ROOT'] ?? process.cwd();
  const jobs = loadJobsConfig(env);
  return {
    models: parseModels(env['RERANK_MODELS'], root),
    apiKeys: (env['RERANK_API_KEYS'] ?? '')
      .split(',')
      .map((k) => k.trim())
      .filter(Boolean),
    maxBodyBytes: setting(env, 'RERANK_MAX_BODY_BYTES'),
    maxPathChars: setting(env, 'RERANK_MAX_PATH_CHARS'),
    localServer: {
      headersTimeoutMs: setting(env, 'RERANK_HEADERS_TIMEOUT_MS'),
      requestTimeoutMs: setting(env, 'RERANK_REQUEST_TIMEOUT_MS'),
      maxConnections: setting(env, 'RERANK_MAX_CONNECTIONS'),
      allowedHosts: (env['RERANK_ALLOWED_HOSTS'] ?? '')
        .split(',')
        .map((h) => h.trim().toLowerCase())
        .filter(Boolean),
    },
    maxDocuments: setting(env, 'RERANK_MAX_DOCUMENTS'),
    maxBatchSize: setting(env, 'RERANK_MAX_BATCH_SIZE'),
    maxQueryChars: setting(env, 'RERANK_MAX_QUERY_CHARS'),
    maxDocumentChars: setting(env, 'RERANK_MAX_DOCUMENT_CHARS'),
    maxInstructionChars: setting(env, 'RERANK_MAX_INSTRUCTION_CHARS'),
    syncTimeoutMs: setting(env, 'RERANK_SYNC_TIMEOUT_MS'),
    threads: positiveInt(env, 'RERANK_THREADS', defaultIntraOpThreads(env)),
    keysFile: resolve(root, env['RERANK_KEYS_FILE'] ?? ENV_DEFAULTS.RERANK_KEYS_FILE),
    rateLimitPerMinute: optionalPositiveInt(env, 'RERANK_RATE_LIMIT_PER_MINUTE'),
    maxConcurrentJobs: optionalPositiveInt(env, 'RERANK_MAX_CONCURRENT_JOBS'),
    upstreamAllowedHosts: (env['RERANK_UPSTREAM_ALLOWED_HOSTS'] ?? '')
      .split(',')
      .map((h) => h.trim())
      .filter(Boolean),
    ...modelNamesConfig(env),
    jobs,
    auth: readAuthSetting(env, jobs.backend),
    batches: {
      maxRunningBatches: setting(env, 'RERANK_BATCH_MAX_RUNNING'),
      maxQueuedPairs: setting(env, 'RERANK_BATCH_MAX_QUEUED_PAIRS'),
      maxLinesPerBatch: setting(env, 'RERANK_BATCH_MAX_LINES'),
      maxCorpusDocuments: setting(env, 'RERANK_BATCH_MAX_CORPUS_DOCUMENTS'),
      maxCorpusResultsWithoutTopN: setting(env, 'RERANK_BATCH_MAX_RESULTS_WITHOUT_TOP_N'),
      outputRetentionSeconds: setting(env, 'RERANK_FILE_RETENTION_DAYS') * 86_400,
      planSliceSeconds: setting(env, 'RERANK_BATCH_PLAN_SLICE_SECONDS'),
    },
    files: {
      dir: resolve(root, env['RERANK_FILES_DIR'] ?? ENV_DEFAULTS.RERANK_FILES_DIR),
      bucket: env['RERANK_FILES_BUCKET'] || undefined,
      s3PathStyle: env['AWS_ENDPOINT_URL_S3'] !== undefined,
      maxFileBytes: setting(env, 'RERANK_FILE_MAX_BYTES'),
      maxFilesPerKey: setting(env, 'RERANK_FILES_MAX_PER_KEY'),
      maxStoredBytesPerKey: setting(env, 'RERANK_FILES_MAX_STORED_BYTES'),
      retentionSeconds: setting(env, 'RERANK_FILE_RETENTION_DAYS') * 86_400,
    },
  };
}

function loadJobsConfig(env: Env): JobsConfig {
  const backend = env['RERANK_JOBS_BACKEND'] ?? ENV_DEFAULTS.RERANK_JOBS_BACKEND;
  if (backend !== 'memory' && backend !== 'aws') throw new ConfigError(`RERANK_JOBS_BACKEND must be memory or aws, got '${backend}'`);
  const tableName = env['RERANK_JOBS_TABLE'];
  const queueUrl = env['RERANK_CHUNK_QUEUE_URL'];
  if (backend === 'aws' && (!tableName || !queueUrl)) {
    throw new ConfigError('RERANK_JOBS_BACKEND=aws needs RERANK_JOBS_TABLE and RERANK_CHUNK_QUEUE_URL');
  }
  return {
    backend,
    tableName,
    queueUrl,
    batchQueueUrl: env['RERANK_BATCH_QUEUE_URL'] || undefined,
    syncMaxDocuments: setting(env, 'RERANK_SYNC_MAX_DOCUMENTS'),
    syncMaxChars: setting(env, 'RERANK_SYNC_MAX_CHARS'),
    defaultBatchSize: setting(env, 'RERANK_DEFAULT_BATCH_SIZE'),
    waitMs: setting(env, 'RERANK_JOB_WAIT_MS'),
    ttlSeconds: setting(env, 'RERANK_JOB_TTL_SECONDS'),
    maxMessageBytes: setting(env, 'RERANK_MAX_MESSAGE_BYTES'),
    workers: setting(env, 'RERANK_LOCAL_WORKERS'),
    maxReceiveCount: setting(env, 'RERANK_MAX_RECEIVE_COUNT'),
    retryDelayMs: setting(env, 'RERANK_RETRY_DELAY_MS'),
  };
}
