import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { SQSClient } from '@aws-sdk/client-sqs';
import type { ApiKeyStore } from '../auth/api-key-store.js';
import type { JobSlots } from '../auth/job-slots.js';
import type { RateLimiter } from '../auth/rate-limiter.js';
import { DynamoDbBatchStore } from '../adapters/dynamodb/dynamodb-batch-store.js';
import { DynamoDbJobStore } from '../adapters/dynamodb/dynamodb-job-store.js';
import { DynamoDbApiKeyStore } from '../adapters/dynamodb/keys/dynamodb-api-key-store.js';
import { DynamoDbJobSlots } from '../adapters/dynamodb/keys/dynamodb-job-slots.js';
import { DynamoDbRateLimiter } from '../adapters/dynamodb/keys/dynamodb-rate-limiter.js';
import { InProcessChunkQueue } from '../adapters/in-process/in-process-chunk-queue.js';
import { InMemoryApiKeyStore } from '../adapters/memory/in-memory-api-key-store.js';
import { InMemoryChunkLedger } from '../adapters/memory/in-memory-chunk-ledger.js';
import { InMemoryJobSlots } from '../adapters/memory/in-memory-job-slots.js';
import { InMemoryJobStore } from '../adapters/memory/in-memory-job-store.js';
import { InMemoryRateLimiter } from '../adapters/memory/in-memory-rate-limiter.js';
import { SqsChunkQueue } from '../adapters/sqs/sqs-chunk-queue.js';
import type { ChunkLedger } from '../jobs/chunk-ledger.js';
import type { ServiceConfig } from '../config/service-config.js';
import type { ChunkQueue } from '../jobs/chunk-queue.js';
import type { JobStore } from '../jobs/job-store.js';
import { traceClient } from '../observability/tracer.js';

/** The storage-side ports, from one backend: AWS (DynamoDB + SQS) or in-process for `npm start`. */
export interface BackendAdapters {
  readonly store: JobStore;
  /** Where job chunks are recorded and counted: the batch store's chunk protocol (a job is one request). */
  readonly chunks: ChunkLedger;
  readonly queue: ChunkQueue;
  readonly keys: ApiKeyStore;
  readonly rateLimiter: RateLimiter;
  readonly jobSlots: JobSlots;
}

export function createBackendAdapters(config: ServiceConfig): BackendAdapters {
  const jobs = config.jobs;
  if (jobs.backend === 'aws') {
    // Endpoints come from the SDK's own settings (AWS_ENDPOINT_URL_SQS / _DYNAMODB point them at emulators).
    // X-Ray subsegments for every DynamoDB and SQS call (a no-op where tracing is off).
    const dynamodb = traceClient(new DynamoDBClient({}));
    const table = jobs.tableName as string;
    return {
      store: new DynamoDbJobStore(table, dynamodb),
      chunks: new DynamoDbBatchStore(dynamodb, table, { retentionSeconds: jobs.ttlSeconds }),
      queue: new SqsChunkQueue(traceClient(new SQSClient({})), jobs.queueUrl as string, { maxMessageBytes: jobs.maxMessageBytes }),
      keys: new DynamoDbApiKeyStore(table, dynamodb),
      rateLimiter: new DynamoDbRateLimiter(table, dynamodb),
      jobSlots: new DynamoDbJobSlots(table, dynamodb),
    };
  }
  return {
    store: new InMemoryJobStore(),
    chunks: new InMemoryChunkLedger(),
    queue: new InProcessChunkQueue({
      concurrency: jobs.workers,
      batchSize: 1,
      maxReceiveCount: jobs.maxReceiveCount,
      retryDelayMs: jobs.retryDelayMs,
    }),
    // The file `npm run keys` writes; re-read on every lookup, so keys made while the server runs count.
    keys: new InMemoryApiKeyStore({ file: config.keysFile }),
    rateLimiter: new InMemoryRateLimiter(),
    jobSlots: new InMemoryJobSlots(),
  };
}
