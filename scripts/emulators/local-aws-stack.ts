import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { SQSClient } from '@aws-sdk/client-sqs';
import { randomUUID } from 'node:crypto';
import { createJobsTable } from './create-jobs-table.js';
import { createChunkQueues } from './create-chunk-queues.js';
import { bothOrNeither } from './both-or-neither.js';
import { localAwsConfig } from './local-aws-config.js';
import { startDynamoDbLocal } from './start-dynamodb-local.js';
import { startMotoServer } from './start-moto-server.js';
import type { ServiceEnv } from '../../shared/config/env-vars.js';

export interface LocalAwsStack {
  readonly tableName: string;
  readonly queueUrl: string;
  readonly dlqUrl: string;
  /** The batch engine's task queue and its DLQ, and the files bucket (moto's S3). */
  readonly batchQueueUrl: string;
  readonly batchDlqUrl: string;
  readonly filesBucket: string;
  readonly dynamodb: DynamoDBClient;
  readonly sqs: SQSClient;
  readonly s3: S3Client;
  /** What the service's config and the SDK read: backend, table, queue, endpoints, dummy credentials. */
  readonly env: Readonly<Record<string, string>>;
  stop(): Promise<void>;
}

/**
 * What the service's config and the SDK read to run against the emulators: the aws jobs backend, its
 * table and queue, service endpoints and dummy credentials (nothing real is ever sent).
 */
export function localServiceEnv(target: {
  readonly dynamodbEndpoint: string;
  readonly sqsEndpoint: string;
  readonly tableName: string;
  readonly queueUrl: string;
  readonly batchQueueUrl?: string;
  readonly filesBucket?: string;
}): Record<string, string> {
  // Typed by the service's own list of variables: a name the service does not read fails to compile.
  const service: ServiceEnv = {
    RERANK_JOBS_BACKEND: 'aws',
    RERANK_JOBS_TABLE: target.tableName,
    RERANK_CHUNK_QUEUE_URL: target.queueUrl,
    ...(target.batchQueueUrl === undefined ? {} : { RERANK_BATCH_QUEUE_URL: target.batchQueueUrl }),
    ...(target.filesBucket === undefined ? {} : { RERANK_FILES_BUCKET: target.filesBucket }),
  };
  return {
    ...service,
    AWS_ENDPOINT_URL_DYNAMODB: target.dynamodbEndpoint,
    AWS_ENDPOINT_URL_SQS: target.sqsEndpoint,
    // moto serves S3 on the same port as SQS.
    AWS_ENDPOINT_URL_S3: target.sqsEndpoint,
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
  };
}

/**
 * DynamoDB Local + moto SQS on free loopback ports, with the jobs table and the chunk queue + DLQ
 * created as the CDK stack creates them. `stop()` kills both servers by their own PIDs.
 */
export async function startLocalAwsStack(
  options: { maxReceiveCount?: number; visibilityTimeoutSeconds?: number } = {},
): Promise<LocalAwsStack> {
  const [dynamo, moto] = await bothOrNeither(startDynamoDbLocal(), startMotoServer());
  const stop = async () => {
    await Promise.all([dynamo.stop(), moto.stop()]);
  };
  try {
    const dynamodb = new DynamoDBClient(localAwsConfig(dynamo.endpoint));
    const sqs = new SQSClient(localAwsConfig(moto.endpoint));
    const s3 = new S3Client({ ...localAwsConfig(moto.endpoint), forcePathStyle: true });
    const suffix = randomUUID().slice(0, 8);
    const tableName = `rerank-jobs-${suffix}`;
    await createJobsTable(dynamodb, tableName);
    const queues = await createChunkQueues(sqs, `rerank-chunks-${suffix}`, {
      maxReceiveCount: options.maxReceiveCount ?? 3,
      visibilityTimeoutSeconds: options.visibilityTimeoutSeconds ?? 30,
    });
    const batchQueues = await createChunkQueues(sqs, `rerank-batch-tasks-${suffix}`, {
      maxReceiveCount: options.maxReceiveCount ?? 3,
      visibilityTimeoutSeconds: options.visibilityTimeoutSeconds ?? 30,
    });
    const filesBucket = `rerank-files-${suffix}`;
    await s3.send(new CreateBucketCommand({ Bucket: filesBucket }));
    return {
      tableName,
      queueUrl: queues.queueUrl,
      dlqUrl: queues.dlqUrl,
      batchQueueUrl: batchQueues.queueUrl,
      batchDlqUrl: batchQueues.dlqUrl,
      filesBucket,
      dynamodb,
      sqs,
      s3,
      env: localServiceEnv({
        dynamodbEndpoint: dynamo.endpoint,
        sqsEndpoint: moto.endpoint,
        tableName,
        queueUrl: queues.queueUrl,
        batchQueueUrl: batchQueues.queueUrl,
        filesBucket,
      }),
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
