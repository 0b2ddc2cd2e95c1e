/**
 * Every environment variable the service reads, with its default: the one list the service config reads
 * from, the CDK stack and the scripts set names from (test/unit/config/env-vars.test.ts holds every
 * `RERANK_*` name in infra/ and scripts/ to it), and docs/configuration.md's environment table is checked against.
 * `undefined` = no default (unset means off, unlimited, or required by another setting).
 */
export const ENV_DEFAULTS = {
  RERANK_MODELS: undefined, // DEFAULT_MODELS in service-config.ts, which needs the model ids
  RERANK_API_KEYS: undefined,
  RERANK_AUTH: 'auto',
  RERANK_MODEL_ALIASES: undefined, // the hosted names SDKs send -> the default model (model-aliases-config.ts)
  RERANK_STRICT_MODEL_NAMES: 'off', // on: a hosted name that is not served is a 400 naming the served models
  RERANK_UPSTREAM_ALLOWED_HOSTS: undefined,
  RERANK_WEAVIATE_PREFIX: '/weaviate', // route-prefix-config.ts (DEFAULT_WEAVIATE_PREFIX)
  RERANK_THREADS: undefined, // defaultIntraOpThreads(): the CPUs, or on Lambda the memory size's vCPUs
  RERANK_MAX_BODY_BYTES: 6 * 1024 * 1024,
  RERANK_MAX_PATH_CHARS: 2048,
  // The local server's sockets (npm start): headers and whole-request deadlines, and concurrent connections.
  RERANK_HEADERS_TIMEOUT_MS: 10_000,
  RERANK_REQUEST_TIMEOUT_MS: 60_000,
  RERANK_MAX_CONNECTIONS: 256,
  // With no keys, the Host names the local server answers besides those HOST implies (local-site-guard.ts); `*` = any.
  RERANK_ALLOWED_HOSTS: undefined,
  RERANK_MAX_DOCUMENTS: 10_000,
  RERANK_MAX_BATCH_SIZE: 1_000,
  RERANK_MAX_QUERY_CHARS: 8_192,
  RERANK_MAX_DOCUMENT_CHARS: 65_536,
  RERANK_MAX_INSTRUCTION_CHARS: 4_096,
  RERANK_KEYS_FILE: '.rerank/keys.json',
  RERANK_RATE_LIMIT_PER_MINUTE: undefined,
  RERANK_MAX_CONCURRENT_JOBS: undefined,
  RERANK_JOBS_BACKEND: 'memory',
  RERANK_JOBS_TABLE: undefined,
  RERANK_CHUNK_QUEUE_URL: undefined,
  RERANK_SYNC_MAX_DOCUMENTS: 256,
  RERANK_SYNC_MAX_CHARS: 2_000_000,
  RERANK_DEFAULT_BATCH_SIZE: 64,
  RERANK_JOB_WAIT_MS: 20_000,
  // A synchronous request's scoring deadline: past it, 504 and no further batch (API Gateway cuts at 30 s).
  RERANK_SYNC_TIMEOUT_MS: 26_000,
  RERANK_JOB_TTL_SECONDS: 86_400,
  RERANK_MAX_MESSAGE_BYTES: 1_048_576,
  RERANK_LOCAL_WORKERS: 2,
  RERANK_MAX_RECEIVE_COUNT: 3,
  RERANK_RETRY_DELAY_MS: 1_000,
  // Batch quotas per key (DEFAULT_BATCH_LIMITS in shared/batches/batch-limits.ts, read by batchLimitsFromEnv).
  RERANK_BATCH_MAX_RUNNING: 10,
  RERANK_BATCH_MAX_QUEUED_PAIRS: 2_000_000_000,
  RERANK_BATCH_MAX_LINES: 50_000,
  RERANK_BATCH_MAX_CORPUS_DOCUMENTS: 1_000_000,
  RERANK_BATCH_MAX_RESULTS_WITHOUT_TOP_N: 10_000,
  RERANK_BATCH_PLAN_SLICE_SECONDS: 300,
  RERANK_BATCH_QUEUE_URL: undefined, // the batch task queue of the aws backend (the CDK stack sets it)
  // Read by `npm run batch` (a client of the service, not the service): the key it sends and the service's address.
  RERANK_KEY: undefined,
  RERANK_BASE_URL: undefined, // http://127.0.0.1:3000
  RERANK_FILES_BUCKET: undefined, // the S3 bucket of the files/uploads/batches FileStore on AWS (the CDK stack sets it)
  RERANK_FILE_RETENTION_DAYS: 30,
  // The Files and Uploads APIs: npm start's folder, and the bounds per file and per key (DEFAULT_FILE_LIMITS).
  RERANK_FILES_DIR: '.rerank/files',
  RERANK_FILE_MAX_BYTES: 200 * 1024 * 1024,
  RERANK_FILES_MAX_PER_KEY: 10_000,
  RERANK_FILES_MAX_STORED_BYTES: 10 * 1024 ** 3,
  RERANK_CODE_ROOT: undefined, // LAMBDA_TASK_ROOT, else the working directory
  RERANK_HUB_FILE_HOSTS: undefined, // DEFAULT_HUB_FILE_HOSTS in model-pull/safe-hub-paths.ts: the Hugging Face CDNs
  RERANK_HUB_MAX_FILE_BYTES: 16 * 1024 ** 3,
  RERANK_MODEL_CACHE: undefined, // modelCacheDir(): $XDG_CACHE_HOME/rerank-service/models, else ~/.cache/rerank-service/models
} as const satisfies Record<`RERANK_${string}`, number | string | undefined>;

export type EnvName = keyof typeof ENV_DEFAULTS;

/** The variables whose default is a number (read with positiveInt). */
export type NumericEnvName = { [K in EnvName]: (typeof ENV_DEFAULTS)[K] extends number ? K : never }[EnvName];

/** A process environment with the service's settings, by name: a misspelt name fails to compile. */
export type ServiceEnv = Partial<Record<EnvName, string>>;
