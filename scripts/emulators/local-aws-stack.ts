import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { SQSClient } from '@aws-sdk/client-sqs';
import { randomUUID } from 'node:crypto';
import { createJobsTable } from '../../shared/adapters/dynamodb/create-jobs-table.js';
import { createChunkQueues } from '../../shared/adapters/sqs/create-chunk-queues.js';
import { localAwsConfig } from './local-aws-config.js';
import { startDynamoDbLocal } from './start-dynamodb-local.js';
import { startMotoServer } from './start-moto-server.js';
import type { ServiceEnv } from '../../shared/config/env-vars.js';

export interface LocalAwsStack {
  readonly tableName: string;
  readonly queueUrl: string;
  readonly dlqUrl: string;
  readonly dynamodb: DynamoDBClient;
  readonly sqs: SQSClient;
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
}): Record<string, string> {
  // Typed by the service's own list of variables: a name the service does not read fails to compile.
  const service: ServiceEnv = { RERANK_JOBS_BACKEND: 'aws', RERANK_JOBS_TABLE: target.tableName, RERANK_CHUNK_QUEUE_URL: target.queueUrl };
  return {
    ...service,
    AWS_ENDPOINT_URL_DYNAMODB: target.dynamodbEndpoint,
    AWS_ENDPOINT_URL_SQS: target.sqsEndpoint,
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
  };
}

/**
 * DynamoDB Local + moto SQS on free loopback ports, with the jobs table and the chunk queue + DLQ
 * created as the CDK stack creates them. `stop()` kills both servers by their own PIDs.
 */
export async function startLocalAwsStack(options: { maxReceiveCount?: number; visibilityTimeoutSeconds?: number } = {}): Promise<LocalAwsStack> {
  const [dynamo, moto] = await Promise.all([startDynamoDbLocal(), startMotoServer()]);
  const stop = async () => {
    await Promise.all([dynamo.stop(), moto.stop()]);
  };
  try {
    const dynamodb = new DynamoDBClient(localAwsConfig(dynamo.endpoint));
    const sqs = new SQSClient(localAwsConfig(moto.endpoint));
    const suffix = randomUUID().slice(0, 8);
    const tableName = `rerank-jobs-${suffix}`;
    await createJobsTable(dynamodb, tableName);
    const queues = await createChunkQueues(sqs, `rerank-chunks-${suffix}`, {
      maxReceiveCount: options.maxReceiveCount ?? 3,
      visibilityTimeoutSeconds: options.visibilityTimeoutSeconds ?? 30,
    });
    return {
      tableName,
      queueUrl: queues.queueUrl,
      dlqUrl: queues.dlqUrl,
      dynamodb,
      sqs,
      env: localServiceEnv({ dynamodbEndpoint: dynamo.endpoint, sqsEndpoint: moto.endpoint, tableName, queueUrl: queues.queueUrl }),
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
