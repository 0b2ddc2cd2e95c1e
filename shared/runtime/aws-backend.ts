import type { ApiKeyStore } from '../auth/api-key-store.js';
import type { RateLimiter } from '../auth/rate-limiter.js';
import { DEFAULT_BATCH_LIMITS } from '../batches/batch-limits.js';
import type { BatchStore } from '../batches/batch-store.js';
import type { CorpusAnalysisLedger } from '../batches/corpus-analysis-ledger.js';
import type { BatchTaskQueue } from '../batches/batch-task-queue.js';
import type { ServiceConfig } from '../config/service-config.js';
import type { ChunkLedger } from '../engine/chunk-ledger.js';
import type { FileStore } from '../files/file-store.js';
import type { UploadStore } from '../files/upload-store.js';
import type { ChunkQueue } from '../jobs/chunk-queue.js';
import type { JobStore } from '../jobs/job-store.js';
import type { QuotaLedger } from '../quota/quota-ledger.js';
import type { Backend } from './backend.js';
import type { BatchRuntime } from './batch-runtime.js';
import { buildOnce } from './build-once.js';
import { deferredPort, type PortShape } from './deferred-port.js';

const LEDGER: PortShape<ChunkLedger> = {
  putChunkScores: 'promise',
  readChunkScores: 'stream',
  deleteChunkScores: 'promise',
  countChunks: 'promise',
};
const QUEUE: PortShape<ChunkQueue & BatchTaskQueue> = { send: 'promise' };
const JOB_STORE: PortShape<JobStore> = {
  create: 'promise',
  get: 'promise',
  getDocuments: 'promise',
  complete: 'promise',
  fail: 'promise',
  getResult: 'promise',
};
const KEYS: PortShape<ApiKeyStore> = { create: 'promise', findByKey: 'promise', list: 'promise', revoke: 'promise' };
const RATE_LIMITER: PortShape<RateLimiter> = { consume: 'promise' };
const QUOTA: PortShape<QuotaLedger> = {
  reserve: 'promise',
  replace: 'promise',
  release: 'promise',
  releaseExpired: 'promise',
  releaseWhere: 'promise',
  usage: 'promise',
};
const BATCH_STORE: PortShape<BatchStore> = {
  ...LEDGER,
  create: 'promise',
  get: 'promise',
  list: 'promise',
  listActive: 'promise',
  update: 'promise',
  leaseFinalize: 'promise',
  putRequest: 'promise',
  getRequest: 'promise',
  readRequests: 'stream',
  putResult: 'promise',
  getResult: 'promise',
  readResults: 'stream',
  countResults: 'promise',
  dropWork: 'promise',
};
const ANALYSIS: PortShape<CorpusAnalysisLedger> = { expect: 'promise', report: 'promise', read: 'promise' };
const UPLOADS: PortShape<UploadStore> = { create: 'promise', get: 'promise', addPart: 'promise', end: 'promise', pendingCount: 'promise' };
const FILES: PortShape<FileStore> = {
  openWriter: 'promise',
  get: 'promise',
  list: 'promise',
  read: 'stream',
  delete: 'promise',
  usage: 'promise',
  deleteExpired: 'promise',
  putDerived: 'promise',
  readDerived: 'promise',
};

/** Batches exist on AWS once the stack names their queue and the bucket (RERANK_BATCH_QUEUE_URL, RERANK_FILES_BUCKET). */
export const awsBatchesConfigured = (config: ServiceConfig): boolean =>
  Boolean(config.jobs.batchQueueUrl && config.files.bucket && config.jobs.tableName);

const loadAwsAdapters = async (config: ServiceConfig): Promise<Backend> => (await import('./aws-adapters.js')).awsAdapters(config);

/**
 * The `aws` backend (DynamoDB, SQS, S3: aws-adapters.ts) behind ports that load it at their first call. A synchronous
 * request with an operator key calls none of them, so the API function's cold start never evaluates the AWS SDK: its
 * clients and commands are a third of the bundle. `load` is for tests.
 */
export function awsBackend(config: ServiceConfig, load: (config: ServiceConfig) => Promise<Backend> = loadAwsAdapters): Backend {
  const adapters = buildOnce(() => load(config));
  const batches = async (): Promise<BatchRuntime> => {
    const loaded = (await adapters()).batches;
    if (loaded === undefined) throw new Error('the aws backend built no batches although their queue and bucket are configured');
    return loaded;
  };
  const files = deferredPort(async () => (await batches()).files!, FILES);
  const quota = deferredPort(async () => (await adapters()).quota, QUOTA);
  return {
    store: deferredPort(async () => (await adapters()).store, JOB_STORE),
    chunks: deferredPort(async () => (await adapters()).chunks, LEDGER),
    queue: deferredPort(async () => (await adapters()).queue, QUEUE),
    keys: deferredPort(async () => (await adapters()).keys, KEYS),
    rateLimiter: deferredPort(async () => (await adapters()).rateLimiter, RATE_LIMITER),
    quota,
    batches: awsBatchesConfigured(config)
      ? {
          store: deferredPort(async () => (await batches()).store, BATCH_STORE),
          analysis: deferredPort(async () => (await batches()).analysis!, ANALYSIS),
          uploads: deferredPort(async () => (await batches()).uploads!, UPLOADS),
          quota,
          queue: deferredPort(async () => (await batches()).queue, QUEUE),
          limits: { ...DEFAULT_BATCH_LIMITS, ...config.batches },
          files,
          downloadUrl: async (id, seconds) => (await batches()).downloadUrl!(id, seconds),
        }
      : undefined,
  };
}
