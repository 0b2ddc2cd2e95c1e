import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { S3Client } from '@aws-sdk/client-s3';
import { SQSClient } from '@aws-sdk/client-sqs';
import { DynamoDbBatchStore } from '../adapters/dynamodb/dynamodb-batch-store.js';
import { DynamoDbChunkLedger } from '../adapters/dynamodb/dynamodb-chunk-ledger.js';
import { DynamoDbCorpusAnalysisLedger } from '../adapters/dynamodb/dynamodb-corpus-analysis-ledger.js';
import { DynamoDbJobStore } from '../adapters/dynamodb/dynamodb-job-store.js';
import { DynamoDbUploadStore } from '../adapters/dynamodb/dynamodb-upload-store.js';
import { DynamoDbQuotaLedger } from '../adapters/dynamodb/dynamodb-quota-ledger.js';
import { DynamoDbApiKeyStore } from '../adapters/dynamodb/keys/dynamodb-api-key-store.js';
import type { QuotaLedger } from '../quota/quota-ledger.js';
import { DynamoDbRateLimiter } from '../adapters/dynamodb/keys/dynamodb-rate-limiter.js';
import { S3FileStore } from '../adapters/s3/s3-file-store.js';
import { SqsTaskQueue } from '../adapters/sqs/sqs-task-queue.js';
import type { BatchTask } from '../batches/batch-model.js';
import { DEFAULT_BATCH_LIMITS } from '../batches/batch-limits.js';
import type { ServiceConfig } from '../config/service-config.js';
import type { JobTask } from '../jobs/job-model.js';
import { traceClient } from '../observability/tracer.js';
import type { Backend } from './backend.js';
import type { BatchRuntime } from './batch-runtime.js';

/**
 * The `aws` backend's adapters (loaded at a port's first call: aws-backend.ts): jobs, chunks, keys, batches and uploads on the one DynamoDB table, chunk and batch tasks on
 * SQS, files in the S3 bucket. Batches only once the stack names their queue and the bucket (RERANK_BATCH_QUEUE_URL,
 * RERANK_FILES_BUCKET). Endpoints come from the SDK's own settings (AWS_ENDPOINT_URL_S3 / _SQS / _DYNAMODB point
 * them at emulators); every client is traced (X-Ray subsegments, a no-op where tracing is off).
 */
export function awsAdapters(config: ServiceConfig): Backend {
  const jobs = config.jobs;
  const dynamodb = traceClient(new DynamoDBClient({}));
  const sqs = traceClient(new SQSClient({}));
  const table = jobs.tableName as string;
  const quota = new DynamoDbQuotaLedger(dynamodb, table);
  return {
    store: new DynamoDbJobStore(table, dynamodb),
    chunks: new DynamoDbChunkLedger(dynamodb, table, { retentionSeconds: jobs.ttlSeconds }),
    queue: new SqsTaskQueue<JobTask>(sqs, jobs.queueUrl as string, 'chunk', { maxMessageBytes: jobs.maxMessageBytes }),
    keys: new DynamoDbApiKeyStore(table, dynamodb),
    rateLimiter: new DynamoDbRateLimiter(table, dynamodb),
    quota,
    batches: awsBatches(config, dynamodb, sqs, quota),
  };
}

function awsBatches(config: ServiceConfig, dynamodb: DynamoDBClient, sqs: SQSClient, quota: QuotaLedger): BatchRuntime | undefined {
  const queueUrl = config.jobs.batchQueueUrl;
  const bucket = config.files.bucket;
  // The same condition as awsBatchesConfigured (aws-backend.ts), spelled out so the compiler narrows the three.
  if (!queueUrl || !bucket || !config.jobs.tableName) return undefined;
  const files = new S3FileStore(traceClient(new S3Client({ forcePathStyle: config.files.s3PathStyle })), bucket, {
    retentionSeconds: config.files.retentionSeconds,
  });
  return {
    store: new DynamoDbBatchStore(dynamodb, config.jobs.tableName),
    analysis: new DynamoDbCorpusAnalysisLedger(dynamodb, config.jobs.tableName),
    uploads: new DynamoDbUploadStore(dynamodb, config.jobs.tableName),
    quota,
    queue: new SqsTaskQueue<BatchTask>(sqs, queueUrl, 'batch'),
    limits: { ...DEFAULT_BATCH_LIMITS, ...config.batches },
    files,
    // A download is a redirect to the object itself, so it is not squeezed through a 6 MB Lambda answer.
    downloadUrl: (id, seconds) => files.presignedReadUrl(id, seconds),
  };
}
