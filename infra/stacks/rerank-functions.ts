import { Annotations, Duration, type Stack } from 'aws-cdk-lib';
import { bundledFolders } from '../config/rerank-models.js';
import type { RerankSettings } from '../config/rerank-settings.js';
import { ScorerFunction, type ScorerFunctionProps } from '../constructs/scorer-function.js';
import { ScorerImage } from '../constructs/scorer-image.js';
import { choosePackaging, estimateUnzippedBytes, type PackagingChoice } from '../packaging/scorer-packaging.js';

/**
 * The scoring functions' entries: the files the local server runs. Two worker entry points: every task queue is consumed
 * by task-worker.ts and every dead-letter queue by dead-letter.ts; which lane a task belongs to is the engine's to know.
 */
export const ENTRIES = {
  api: 'functions/api/handler.ts',
  worker: 'functions/workers/task-worker.ts',
  deadLetter: 'functions/workers/dead-letter.ts',
} as const;

export const SERVICE_NAME = 'rerank';
export const METRICS_NAMESPACE = 'RerankService';
export const DEAD_LETTER_CONCURRENCY = 2;
/** The chunk DLQ consumer's timeout: it ends jobs (fails one, or finishes one whose last chunk was recorded after all). */
export const DEAD_LETTER_TIMEOUT = Duration.seconds(30);

export interface RerankFunctions {
  readonly packaging: PackagingChoice;
  readonly apiFunction: ScorerFunction;
  readonly workerFunction: ScorerFunction;
  readonly deadLetterFunction: ScorerFunction;
  readonly batchWorkerFunction: ScorerFunction;
  readonly batchDeadLetterFunction: ScorerFunction;
}

type CommonProps = Omit<ScorerFunctionProps, 'entry' | 'description' | 'memoryMb' | 'timeout' | 'reservedConcurrency'>;

/** What every function reads: the same validated service config (shared/config/service-config.ts). */
export function functionEnvironment(s: RerankSettings, resources: readonly Record<string, string>[]): Record<string, string> {
  return {
    RERANK_JOBS_BACKEND: 'aws',
    RERANK_SYNC_MAX_DOCUMENTS: String(s.syncMaxDocuments),
    RERANK_DEFAULT_BATCH_SIZE: String(s.defaultBatchSize),
    RERANK_JOB_WAIT_MS: String(s.jobWaitMs),
    // The sync scoring deadline ends 3 s before API Gateway cuts the integration, so the client reads our 504.
    RERANK_SYNC_TIMEOUT_MS: String((s.apiTimeoutSeconds - 3) * 1000),
    RERANK_JOB_TTL_SECONDS: String(s.jobTtlSeconds),
    RERANK_MAX_RECEIVE_COUNT: String(s.maxReceiveCount),
    // Unset = no upstream host allowed, as the service's own default.
    ...(s.upstreamAllowedHosts ? { RERANK_UPSTREAM_ALLOWED_HOSTS: s.upstreamAllowedHosts } : {}),
    // The function matches the routes API Gateway was given at synth (buildApiRoutes).
    RERANK_WEAVIATE_PREFIX: s.weaviatePrefix,
    POWERTOOLS_SERVICE_NAME: SERVICE_NAME,
    POWERTOOLS_METRICS_NAMESPACE: METRICS_NAMESPACE,
    POWERTOOLS_LOG_LEVEL: 'INFO',
    ...resources.reduce<Record<string, string>>((all, more) => ({ ...all, ...more }), {}),
  };
}

/**
 * One packaging choice for every scoring function: they carry the same models, so they fit a zip or none does. The
 * API, the chunk queue's worker and dead-letter consumer and the batch task queue's, with what they have in common.
 */
export function createFunctions(
  stack: Stack,
  s: RerankSettings,
  projectRoot: string,
  environment: Record<string, string>,
): RerankFunctions {
  const packaging = choosePackaging(
    s.packaging,
    estimateUnzippedBytes({ projectRoot, architecture: s.architecture, folders: bundledFolders(s.deployModels) }),
  );
  Annotations.of(stack).addInfo(packaging.reason);
  const image =
    packaging.packaging === 'image'
      ? new ScorerImage(stack, 'ScorerImage', {
          projectRoot,
          architecture: s.architecture,
          models: s.deployModels,
          entries: Object.values(ENTRIES),
        })
      : undefined;
  const common: CommonProps = {
    projectRoot,
    architecture: s.architecture,
    image,
    models: s.deployModels,
    logRetentionDays: s.logRetentionDays,
    environment,
  };
  return { packaging, ...chunkFunctions(stack, s, common), ...batchFunctions(stack, s, common) };
}

function chunkFunctions(stack: Stack, s: RerankSettings, common: CommonProps) {
  const apiFunction = new ScorerFunction(stack, 'Api', {
    ...common,
    entry: ENTRIES.api,
    description: 'Rerank API: every dialect route, synchronous scoring, job submit and poll',
    memoryMb: s.apiMemoryMb,
    timeout: Duration.seconds(s.apiTimeoutSeconds),
    reservedConcurrency: s.apiReservedConcurrency,
    // With RERANK_JOBS_BACKEND=aws the API authenticates every request against the keys in the jobs table
    // (fail closed); these are the limits of keys created without their own. RERANK_API_KEYS is never set here.
    environment: {
      ...common.environment,
      RERANK_RATE_LIMIT_PER_MINUTE: String(s.rateLimitPerMinute),
      RERANK_MAX_CONCURRENT_JOBS: String(s.maxConcurrentJobs),
    },
  });
  const workerFunction = new ScorerFunction(stack, 'Worker', {
    ...common,
    entry: ENTRIES.worker,
    description: "Rerank worker: runs the chunk queue's tasks (jobs' chunks and finishes)",
    memoryMb: s.workerMemoryMb,
    timeout: Duration.seconds(s.workerTimeoutSeconds),
    reservedConcurrency: s.workerReservedConcurrency,
  });
  const deadLetterFunction = new ScorerFunction(stack, 'DeadLetter', {
    ...common,
    entry: ENTRIES.deadLetter,
    description: "Rerank dead-letter consumer: ends the job of every task of the chunk queue's DLQ",
    memoryMb: s.deadLetterMemoryMb,
    timeout: DEAD_LETTER_TIMEOUT,
    // Its event source runs at most 2 at once (SQS's minimum maximum concurrency).
    reservedConcurrency: DEAD_LETTER_CONCURRENCY,
  });
  return { apiFunction, workerFunction, deadLetterFunction };
}

/**
 * The batch task queue's worker and dead-letter consumer run the chunk queue's handler files, as functions of their own:
 * a plan or finalize task streams a whole input or output file (up to 900 s) where a chunk of a job must be retried
 * within a minute, and the queue's visibility timeout must cover its consumer's timeout, so one function for both queues
 * would hold a crashed job chunk for 90 minutes. The batch DLQ's recovery may finish a task's lines (read their input
 * line, merge every recorded score of each), batch-worker work beyond the chunk DLQ consumer's 30 s. Each function's
 * role holds what its own queue's tasks need (rerank-wiring.ts).
 */
function batchFunctions(stack: Stack, s: RerankSettings, common: CommonProps) {
  const batchWorkerFunction = new ScorerFunction(stack, 'BatchWorker', {
    ...common,
    entry: ENTRIES.worker,
    description: 'Rerank batch worker: plans batches, scores their chunks, writes output and error files, expires them',
    memoryMb: s.workerMemoryMb,
    timeout: Duration.seconds(s.batchWorkerTimeoutSeconds),
    // A plan task plans a third of its timeout, then checkpoints and queues the next: no input is too large to plan.
    environment: { ...common.environment, RERANK_BATCH_PLAN_SLICE_SECONDS: String(Math.floor(s.batchWorkerTimeoutSeconds / 3)) },
    reservedConcurrency: s.batchWorkerMaxConcurrency,
  });
  const batchDeadLetterFunction = new ScorerFunction(stack, 'BatchDeadLetter', {
    ...common,
    entry: ENTRIES.deadLetter,
    description: "Rerank batch dead-letter consumer: ends the line (or batch) of every task of the batch task queue's DLQ",
    memoryMb: s.workerMemoryMb,
    timeout: Duration.seconds(s.batchWorkerTimeoutSeconds),
    // Its event source runs at most 2 at once (SQS's minimum maximum concurrency).
    reservedConcurrency: DEAD_LETTER_CONCURRENCY,
  });
  return { batchWorkerFunction, batchDeadLetterFunction };
}
