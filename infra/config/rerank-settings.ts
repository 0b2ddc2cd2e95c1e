import { lambdaVcpus } from '../../shared/config/lambda-vcpus.js';
import { DEFAULT_WEAVIATE_PREFIX, readRoutePrefix } from '../../shared/config/route-prefix-config.js';
import { PACKAGING_MODES, type PackagingMode } from '../packaging/scorer-packaging.js';
import { readDeployModels, type DeployModels } from './rerank-models.js';

/** Everything the stack can be told through cdk context (`cdk.json` or `-c rerank:key=value`). */
export interface RerankSettings {
  /** Deployment name: the stack is `Rerank-<stage>`; the API itself always serves on its `$default` stage. */
  readonly stage: string;
  readonly apiName: string;
  /** RERANK_MODELS syntax (`id=folder,id=lexical,id=hybrid:a+b`, first = default); '' = what `npm start` serves. */
  readonly models: string;
  /** Legacy: one model folder to deploy instead of `models` (relative to the project root); '' = unset. */
  readonly modelFolder: string;
  /** The default model among `models` (or the legacy folder's id); '' = the first listed. */
  readonly modelId: string;
  /** `models` parsed and validated: the functions serve exactly this list (see infra/config/rerank-models.ts). */
  readonly deployModels: DeployModels;
  readonly architecture: 'arm64' | 'x86_64';
  /** Scoring functions as a zip, a container image, or `auto`: an image when the models would not fit a zip. */
  readonly packaging: PackagingMode;
  readonly apiMemoryMb: number;
  readonly workerMemoryMb: number;
  readonly deadLetterMemoryMb: number;
  /** HTTP API integrations time out at 30 s, so the API function stays below it. */
  readonly apiTimeoutSeconds: number;
  /** How long a dialect endpoint waits for a fanned-out job (RERANK_JOB_WAIT_MS); must end before the API timeout. */
  readonly jobWaitMs: number;
  readonly workerTimeoutSeconds: number;
  readonly syncMaxDocuments: number;
  readonly defaultBatchSize: number;
  /** SQS records per worker invocation; 1 spreads a job's chunks over the most workers. */
  readonly workerBatchSize: number;
  readonly workerBatchingWindowSeconds: number;
  /** Event source maximum concurrency: worker containers scoring at once (2-1000). */
  readonly workerMaxConcurrency: number;
  /** The batch worker's timeout: a plan or finalize task streams a whole input or output file within it. */
  readonly batchWorkerTimeoutSeconds: number;
  /** Batch worker containers at once (its task queue's event source maximum concurrency). */
  readonly batchWorkerMaxConcurrency: number;
  /** Deliveries of a chunk before it is dead-lettered and its job fails. */
  readonly maxReceiveCount: number;
  readonly jobTtlSeconds: number;
  /**
   * Keep the jobs table when the stack is deleted (default true): it holds the API keys as well as the jobs,
   * so `cdk destroy` (or a replacement of the table) must not silently revoke every client.
   */
  readonly retainTable: boolean;
  /** Jobs table PITR; context `auto` (the cdk.json default) = on exactly when the table is retained. */
  readonly pointInTimeRecovery: boolean;
  readonly logRetentionDays: number;
  /** Days uploaded files, batch inputs, outputs and error files are kept (the files bucket's lifecycle expiry). */
  readonly fileRetentionDays: number;
  /** RERANK_RATE_LIMIT_PER_MINUTE: requests per minute for a key created without its own `--rate`. */
  readonly rateLimitPerMinute: number;
  /** RERANK_MAX_CONCURRENT_JOBS: running jobs per key for a key created without its own `--max-jobs`. */
  readonly maxConcurrentJobs: number;
  /**
   * RERANK_UPSTREAM_ALLOWED_HOSTS: comma-separated hosts (`host` or `host:port`, lowercase) that a request's
   * upstream reranker may call; empty = none, `*` = any (not advised: clients then choose what the functions call).
   */
  readonly upstreamAllowedHosts: string;
  /**
   * RERANK_WEAVIATE_PREFIX: where Weaviate's reranker-transformers protocol is served (`{prefix}/rerank`, `/meta`,
   * `/.well-known/ready`). A setting of the stack, not only of the function: API Gateway's routes come from it at synth.
   */
  readonly weaviatePrefix: string;
  /**
   * E-mail subscribed to the alarm topic, or ALARM_EMAIL_OPT_OUT ('none'). No default: an operator chooses,
   * so no stack deploys alarms that reach nobody without someone having said so.
   */
  readonly alarmEmail: string;
  /** Stage-wide API Gateway throttling (requests per second, burst). */
  readonly throttleRateLimit: number;
  readonly throttleBurstLimit: number;
  /**
   * Reserved concurrency of the API function: the most executions it can hold, so waiting dialect requests
   * cannot take the account's pool from the workers (or anything else). Must cover throttleRateLimit x jobWait.
   */
  readonly apiReservedConcurrency: number;
  /** Reserved concurrency of the worker; at least workerMaxConcurrency, so the event source is never throttled. */
  readonly workerReservedConcurrency: number;
  /** Provisioned concurrency on the API alias (0 = none): warm containers with the model loaded. */
  readonly apiProvisionedConcurrency: number;
  /** Lambda REQUEST authorizer on every non-public route: bad keys are answered before the scoring function. */
  readonly edgeAuthorizer: boolean;
  /** How long API Gateway caches an authorizer answer per Authorization header (0-3600 s). */
  readonly authorizerCacheSeconds: number;
  readonly authorizerReservedConcurrency: number;
  /** CodeDeploy rollout of a new API/worker version (alarms roll it back). */
  readonly deploymentPreference: DeploymentPreference;
}

/** CodeDeploy's predefined Lambda configurations this stack offers (names as CodeDeploy spells them). */
const DEPLOYMENT_PREFERENCES = [
  'AllAtOnce',
  'Canary10Percent5Minutes',
  'Canary10Percent15Minutes',
  'Linear10PercentEvery1Minute',
  'Linear10PercentEvery3Minutes',
] as const;
export type DeploymentPreference = (typeof DEPLOYMENT_PREFERENCES)[number];

/** `rerank:alarmEmail` value that deploys alarms without a subscriber, on purpose. */
export const ALARM_EMAIL_OPT_OUT = 'none';

/** The documented defaults; `cdk.json` repeats them (a test keeps the two equal). */
export const DEFAULT_RERANK_SETTINGS: Omit<RerankSettings, 'deployModels'> = {
  stage: 'dev',
  apiName: 'rerank-api',
  models: '',
  modelFolder: '',
  modelId: '',
  architecture: 'arm64',
  packaging: 'auto',
  apiMemoryMb: 3008,
  workerMemoryMb: 3008,
  deadLetterMemoryMb: 1024,
  apiTimeoutSeconds: 29,
  jobWaitMs: 10_000,
  workerTimeoutSeconds: 60,
  syncMaxDocuments: 256,
  defaultBatchSize: 64,
  workerBatchSize: 1,
  workerBatchingWindowSeconds: 0,
  workerMaxConcurrency: 10,
  batchWorkerTimeoutSeconds: 900,
  batchWorkerMaxConcurrency: 10,
  maxReceiveCount: 3,
  jobTtlSeconds: 86_400,
  retainTable: true,
  pointInTimeRecovery: true,
  logRetentionDays: 30,
  fileRetentionDays: 30,
  rateLimitPerMinute: 600,
  maxConcurrentJobs: 20,
  upstreamAllowedHosts: '',
  weaviatePrefix: DEFAULT_WEAVIATE_PREFIX,
  // The dev stage's default only: any other stage must choose (readRerankSettings), so cdk.json does not ship it.
  alarmEmail: ALARM_EMAIL_OPT_OUT,
  throttleRateLimit: 20,
  throttleBurstLimit: 40,
  apiReservedConcurrency: 200,
  workerReservedConcurrency: 10,
  apiProvisionedConcurrency: 0,
  edgeAuthorizer: true,
  authorizerCacheSeconds: 60,
  authorizerReservedConcurrency: 20,
  deploymentPreference: 'Canary10Percent5Minutes',
};

export const CONTEXT_PREFIX = 'rerank:';

/** cdk.json's `rerank:pointInTimeRecovery`: follow `rerank:retainTable` unless set to true or false. */
export const PITR_FOLLOWS_RETENTION = 'auto';

/** Context keys that no longer exist: failing beats silently ignoring a deployer's override. */
const REMOVED_KEYS: Readonly<Record<string, string>> = {
  apiKeysSecretArn:
    'API keys now live (hashed) in the jobs table: create them with `npm run keys -- --table <JobsTableName> create --name <name>`',
  removalPolicy: 'use rerank:retainTable=true|false',
};

/** CloudWatch Logs accepts only these retention periods. */
const LOG_RETENTION_DAYS = [1, 3, 5, 7, 14, 30, 60, 90, 120, 150, 180, 365, 400, 545, 731, 1096, 1827, 2192, 2557, 2922, 3288, 3653];

export class RerankSettingsError extends Error {
  override readonly name = 'RerankSettingsError';
}

type ContextReader = (key: string) => unknown;

function intIn(key: string, raw: unknown, min: number, max: number): number {
  const value = typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : raw;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min || value > max) {
    throw new RerankSettingsError(`${CONTEXT_PREFIX}${key} must be an integer in [${min}, ${max}], got '${String(raw)}'`);
  }
  return value;
}

function bool(key: string, raw: unknown): boolean {
  if (raw === true || raw === 'true') return true;
  if (raw === false || raw === 'false') return false;
  throw new RerankSettingsError(`${CONTEXT_PREFIX}${key} must be true or false, got '${String(raw)}'`);
}

function oneOf<T extends string>(key: string, raw: unknown, allowed: readonly T[]): T {
  if (typeof raw === 'string' && (allowed as readonly string[]).includes(raw)) return raw as T;
  throw new RerankSettingsError(`${CONTEXT_PREFIX}${key} must be one of ${allowed.join(', ')}, got '${String(raw)}'`);
}

/** One host as URL.host spells it (lowercase, port only when not the default), or an IPv6 literal in brackets. */
const HOST = /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*|\[[0-9a-f:.]+\])(?::\d{1,5})?$/;

function hostList(key: string, raw: unknown): string {
  if (typeof raw !== 'string')
    throw new RerankSettingsError(`${CONTEXT_PREFIX}${key} must be a comma-separated host list, got '${String(raw)}'`);
  const hosts = raw
    .split(',')
    .map((h) => h.trim().toLowerCase())
    .filter(Boolean);
  for (const host of hosts) {
    if (host !== '*' && !HOST.test(host)) {
      throw new RerankSettingsError(`${CONTEXT_PREFIX}${key} entries must be host or host:port (or *), got '${host}'`);
    }
  }
  return [...new Set(hosts)].join(',');
}

function routePrefix(key: string, raw: unknown): string {
  try {
    return readRoutePrefix(`${CONTEXT_PREFIX}${key}`, typeof raw === 'string' ? raw : String(raw), DEFAULT_WEAVIATE_PREFIX);
  } catch (error) {
    throw new RerankSettingsError((error as Error).message);
  }
}

function text(key: string, raw: unknown, pattern: RegExp, hint: string): string {
  if (typeof raw === 'string' && pattern.test(raw)) return raw;
  throw new RerankSettingsError(`${CONTEXT_PREFIX}${key} must be ${hint}, got '${String(raw)}'`);
}

/**
 * Reads `rerank:*` context once and validates it, so a bad value fails `cdk synth` with the key's name
 * instead of failing a deployment. Context from `-c` arrives as strings, from cdk.json as JSON values.
 */
export function readRerankSettings(tryGetContext: ContextReader): RerankSettings {
  const get = <K extends keyof typeof DEFAULT_RERANK_SETTINGS>(key: K): unknown =>
    tryGetContext(`${CONTEXT_PREFIX}${key}`) ?? DEFAULT_RERANK_SETTINGS[key];
  for (const [key, hint] of Object.entries(REMOVED_KEYS)) {
    if (tryGetContext(`${CONTEXT_PREFIX}${key}`) !== undefined)
      throw new RerankSettingsError(`${CONTEXT_PREFIX}${key} was removed: ${hint}`);
  }
  const retainTable = bool('retainTable', get('retainTable'));
  const rawPitr = tryGetContext(`${CONTEXT_PREFIX}pointInTimeRecovery`) ?? PITR_FOLLOWS_RETENTION;
  const pointInTimeRecovery = rawPitr === PITR_FOLLOWS_RETENTION ? retainTable : bool('pointInTimeRecovery', rawPitr);
  const modelFolder = text('modelFolder', get('modelFolder'), /^[^,=]*$/, 'a folder path without , or =');
  const modelId = text('modelId', get('modelId'), /^[A-Za-z0-9._-]*$/, 'letters, digits, . _ -');
  const models = text('models', get('models'), /^[^\s]*$/, 'RERANK_MODELS syntax: id=folder|lexical|hybrid:a+b, comma-separated');
  let deployModels: DeployModels;
  try {
    deployModels = readDeployModels(
      (key) => ({ 'rerank:models': models, 'rerank:modelFolder': modelFolder, 'rerank:modelId': modelId })[key],
    );
  } catch (error) {
    throw new RerankSettingsError((error as Error).message);
  }
  const apiTimeoutSeconds = intIn('apiTimeoutSeconds', get('apiTimeoutSeconds'), 3, 29);
  const jobWaitMs = intIn('jobWaitMs', get('jobWaitMs'), 1, 28_000);
  // The API function must still answer (202) after waiting; 3 s covers a cold start's tail and the response.
  if (jobWaitMs > (apiTimeoutSeconds - 3) * 1000) {
    throw new RerankSettingsError(`${CONTEXT_PREFIX}jobWaitMs (${jobWaitMs}) must end 3 s before apiTimeoutSeconds (${apiTimeoutSeconds})`);
  }
  const workerBatchSize = intIn('workerBatchSize', get('workerBatchSize'), 1, 10_000);
  const workerBatchingWindowSeconds = intIn('workerBatchingWindowSeconds', get('workerBatchingWindowSeconds'), 0, 300);
  if (workerBatchSize > 10 && workerBatchingWindowSeconds === 0) {
    throw new RerankSettingsError(`${CONTEXT_PREFIX}workerBatchSize above 10 needs a workerBatchingWindowSeconds of at least 1`);
  }
  const logRetentionDays = intIn('logRetentionDays', get('logRetentionDays'), 1, 3653);
  if (!LOG_RETENTION_DAYS.includes(logRetentionDays)) {
    throw new RerankSettingsError(`${CONTEXT_PREFIX}logRetentionDays must be one of ${LOG_RETENTION_DAYS.join(', ')}`);
  }
  const concurrency = readConcurrency(get, jobWaitMs, intIn('workerMaxConcurrency', get('workerMaxConcurrency'), 2, 1_000));
  const stageName = String(get('stage'));
  const chosenAlarmEmail = tryGetContext(`${CONTEXT_PREFIX}alarmEmail`);
  // dev deploys its alarms unsubscribed unless told otherwise; a stage anyone relies on must say who is told.
  const rawAlarmEmail =
    chosenAlarmEmail === undefined && stageName === DEFAULT_RERANK_SETTINGS.stage ? ALARM_EMAIL_OPT_OUT : chosenAlarmEmail;
  if (rawAlarmEmail === undefined || rawAlarmEmail === '') {
    throw new RerankSettingsError(
      `${CONTEXT_PREFIX}alarmEmail must be set for stage '${stageName}': an e-mail address that receives the alarms, or '${ALARM_EMAIL_OPT_OUT}' to deploy them unsubscribed on purpose`,
    );
  }
  return {
    ...concurrency,
    stage: text('stage', get('stage'), /^[A-Za-z][A-Za-z0-9-]{0,31}$/, 'a letter then letters, digits or - (max 32)'),
    apiName: text('apiName', get('apiName'), /^[A-Za-z0-9._-]{1,128}$/, 'letters, digits, . _ - (max 128)'),
    models,
    modelFolder,
    modelId,
    deployModels,
    architecture: oneOf('architecture', get('architecture'), ['arm64', 'x86_64'] as const),
    packaging: oneOf('packaging', get('packaging'), PACKAGING_MODES),
    apiMemoryMb: intIn('apiMemoryMb', get('apiMemoryMb'), 512, 10_240),
    workerMemoryMb: intIn('workerMemoryMb', get('workerMemoryMb'), 512, 10_240),
    deadLetterMemoryMb: intIn('deadLetterMemoryMb', get('deadLetterMemoryMb'), 512, 10_240),
    apiTimeoutSeconds,
    jobWaitMs,
    workerTimeoutSeconds: intIn('workerTimeoutSeconds', get('workerTimeoutSeconds'), 10, 900),
    syncMaxDocuments: intIn('syncMaxDocuments', get('syncMaxDocuments'), 1, 10_000),
    defaultBatchSize: intIn('defaultBatchSize', get('defaultBatchSize'), 1, 1_000),
    workerBatchSize,
    workerBatchingWindowSeconds,
    workerMaxConcurrency: intIn('workerMaxConcurrency', get('workerMaxConcurrency'), 2, 1_000),
    batchWorkerTimeoutSeconds: intIn('batchWorkerTimeoutSeconds', get('batchWorkerTimeoutSeconds'), 60, 900),
    batchWorkerMaxConcurrency: intIn('batchWorkerMaxConcurrency', get('batchWorkerMaxConcurrency'), 2, 1_000),
    maxReceiveCount: intIn('maxReceiveCount', get('maxReceiveCount'), 1, 1_000),
    jobTtlSeconds: intIn('jobTtlSeconds', get('jobTtlSeconds'), 60, 30 * 86_400),
    retainTable,
    pointInTimeRecovery,
    logRetentionDays,
    fileRetentionDays: intIn('fileRetentionDays', get('fileRetentionDays'), 1, 3653),
    rateLimitPerMinute: intIn('rateLimitPerMinute', get('rateLimitPerMinute'), 1, 1_000_000),
    maxConcurrentJobs: intIn('maxConcurrentJobs', get('maxConcurrentJobs'), 1, 10_000),
    upstreamAllowedHosts: hostList('upstreamAllowedHosts', get('upstreamAllowedHosts')),
    weaviatePrefix: routePrefix('weaviatePrefix', get('weaviatePrefix')),
    alarmEmail: text('alarmEmail', rawAlarmEmail, /^none$|^[^@\s]+@[^@\s]+\.[^@\s]+$/, `an e-mail address or '${ALARM_EMAIL_OPT_OUT}'`),
    edgeAuthorizer: bool('edgeAuthorizer', get('edgeAuthorizer')),
    authorizerCacheSeconds: intIn('authorizerCacheSeconds', get('authorizerCacheSeconds'), 0, 3600),
    deploymentPreference: oneOf('deploymentPreference', get('deploymentPreference'), DEPLOYMENT_PREFERENCES),
  };
}

type ConcurrencySettings = Pick<
  RerankSettings,
  | 'throttleRateLimit'
  | 'throttleBurstLimit'
  | 'apiReservedConcurrency'
  | 'workerReservedConcurrency'
  | 'apiProvisionedConcurrency'
  | 'authorizerReservedConcurrency'
>;

/**
 * Concurrency is arithmetic: executions = requests per second x seconds each holds. The slowest API request is a
 * dialect request that waits jobWaitMs for its job, so the stage throttle times that wait must fit in the API's
 * reserved concurrency; otherwise waiting requests alone could fill it and throttle the quick ones.
 */
function readConcurrency(
  get: (key: keyof typeof DEFAULT_RERANK_SETTINGS) => unknown,
  jobWaitMs: number,
  workerMaxConcurrency: number,
): ConcurrencySettings {
  const throttleRateLimit = intIn('throttleRateLimit', get('throttleRateLimit'), 1, 100_000);
  const apiReservedConcurrency = intIn('apiReservedConcurrency', get('apiReservedConcurrency'), 1, 10_000);
  const waitingAtFullRate = Math.ceil((throttleRateLimit * jobWaitMs) / 1000);
  if (waitingAtFullRate > apiReservedConcurrency) {
    throw new RerankSettingsError(
      `${CONTEXT_PREFIX}apiReservedConcurrency (${apiReservedConcurrency}) must cover throttleRateLimit x jobWaitMs = ` +
        `${throttleRateLimit}/s x ${jobWaitMs / 1000} s = ${waitingAtFullRate} executions: lower the rate or the wait, or reserve more`,
    );
  }
  const workerReservedConcurrency = intIn('workerReservedConcurrency', get('workerReservedConcurrency'), 2, 10_000);
  if (workerReservedConcurrency < workerMaxConcurrency) {
    throw new RerankSettingsError(
      `${CONTEXT_PREFIX}workerReservedConcurrency (${workerReservedConcurrency}) must be at least workerMaxConcurrency (${workerMaxConcurrency}), or the event source is throttled`,
    );
  }
  const apiProvisionedConcurrency = intIn('apiProvisionedConcurrency', get('apiProvisionedConcurrency'), 0, 10_000);
  if (apiProvisionedConcurrency > apiReservedConcurrency) {
    throw new RerankSettingsError(
      `${CONTEXT_PREFIX}apiProvisionedConcurrency (${apiProvisionedConcurrency}) must not exceed apiReservedConcurrency (${apiReservedConcurrency})`,
    );
  }
  return {
    throttleRateLimit,
    throttleBurstLimit: intIn('throttleBurstLimit', get('throttleBurstLimit'), 1, 100_000),
    apiReservedConcurrency,
    workerReservedConcurrency,
    apiProvisionedConcurrency,
    authorizerReservedConcurrency: intIn('authorizerReservedConcurrency', get('authorizerReservedConcurrency'), 1, 10_000),
  };
}

/** The scorer's intra-op threads follow the vCPUs Lambda gives this memory size (the runtime's own formula). */
export function threadsForMemory(memoryMb: number): number {
  return lambdaVcpus(memoryMb);
}
