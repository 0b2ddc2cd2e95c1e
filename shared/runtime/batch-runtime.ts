import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { S3Client } from '@aws-sdk/client-s3';
import { SQSClient } from '@aws-sdk/client-sqs';
import { DynamoDbBatchStore } from '../adapters/dynamodb/dynamodb-batch-store.js';
import { DynamoDbUploadStore } from '../adapters/dynamodb/dynamodb-upload-store.js';
import { InProcessBatchTaskQueue } from '../adapters/in-process/in-process-batch-task-queue.js';
import { InMemoryBatchStore } from '../adapters/memory/in-memory-batch-store.js';
import { S3FileStore } from '../adapters/s3/s3-file-store.js';
import { SqsBatchTaskQueue } from '../adapters/sqs/sqs-batch-task-queue.js';
import { DEFAULT_BATCH_LIMITS, type BatchLimits } from '../batches/batch-limits.js';
import type { BatchStore } from '../batches/batch-store.js';
import type { BatchTaskQueue } from '../batches/batch-task-queue.js';
import type { ServiceConfig } from '../config/service-config.js';
import type { FileStore } from '../files/file-store.js';
import type { UploadStore } from '../files/upload-store.js';
import { LocalFolderFileStore } from '../adapters/local/local-folder-file-store.js';
import { InMemoryUploadStore } from '../adapters/memory/in-memory-upload-store.js';
import { traceClient } from '../observability/tracer.js';

/** The batch engine's storage-side ports for this process. */
export interface BatchRuntime {
  readonly store: BatchStore;
  readonly queue: BatchTaskQueue;
  /** `npm start`'s in-process queue, which the engine attaches to; absent on AWS, where SQS feeds the batch worker. */
  readonly localQueue?: InProcessBatchTaskQueue;
  readonly limits: BatchLimits;
  /** The files behind batches and the Files API: a local folder on `npm start`, S3 on AWS. */
  readonly files?: FileStore;
  /** Pending uploads of the Uploads API: memory on `npm start`, the jobs table on AWS. */
  readonly uploads?: UploadStore;
  /** The engine's clock, epoch ms (tests move it); absent = the system clock. */
  readonly nowMs?: () => number;
}

/** How often the embedded engine looks for batches past their completion window. */
export const EXPIRY_SWEEP_MS = 60_000;

/**
 * Batch tasks run at once: twice the scoring workers, so one task's reads (its line, its corpus range) and
 * bookkeeping overlap another's scoring instead of leaving a scorer idle (bench/batch-report.md).
 */
export const batchTaskRunners = (workers: number): number => workers * 2;

/**
 * The `memory` backend (`npm start`): batches in memory, tasks on an in-process queue, files in RERANK_FILES_DIR,
 *  pending uploads in memory. The `aws` backend: the
 * DynamoDB batch store on the jobs table, the SQS batch task queue and the S3 files bucket, once the stack names
 * the queue and the bucket (RERANK_BATCH_QUEUE_URL, RERANK_FILES_BUCKET); without them it serves no batches.
 */
export function createBatchRuntime(config: ServiceConfig): BatchRuntime | undefined {
  const limits = { ...DEFAULT_BATCH_LIMITS, ...config.batches };
  if (config.jobs.backend === 'aws') {
    const queueUrl = config.jobs.batchQueueUrl;
    const bucket = config.files.bucket;
    if (!queueUrl || !bucket || !config.jobs.tableName) return undefined;
    // Endpoints from the SDK's own settings (AWS_ENDPOINT_URL_S3 / _SQS / _DYNAMODB point them at emulators).
    const dynamo = traceClient(new DynamoDBClient({}));
    return {
      store: new DynamoDbBatchStore(dynamo, config.jobs.tableName),
      uploads: new DynamoDbUploadStore(dynamo, config.jobs.tableName),
      queue: new SqsBatchTaskQueue(traceClient(new SQSClient({})), queueUrl),
      limits,
      files: new S3FileStore(traceClient(new S3Client({ forcePathStyle: config.files.s3PathStyle })), bucket),
    };
  }
  const localQueue = new InProcessBatchTaskQueue({
    concurrency: batchTaskRunners(config.jobs.workers),
    maxAttempts: config.jobs.maxReceiveCount,
    retryDelayMs: config.jobs.retryDelayMs,
  });
  return {
    store: new InMemoryBatchStore(),
    queue: localQueue,
    localQueue,
    limits,
    files: new LocalFolderFileStore(config.files.dir),
    uploads: new InMemoryUploadStore(),
  };
}
