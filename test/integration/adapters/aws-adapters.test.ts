import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { SQSClient } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll } from 'vitest';
import { createJobsTable } from '../../../shared/adapters/dynamodb/create-jobs-table.js';
import { DynamoDbJobStore } from '../../../shared/adapters/dynamodb/dynamodb-job-store.js';
import type { EmulatorHandle } from '../../../scripts/emulators/emulator-handle.js';
import { localAwsConfig } from '../../../scripts/emulators/local-aws-config.js';
import { startDynamoDbLocal } from '../../../scripts/emulators/start-dynamodb-local.js';
import { startMotoServer } from '../../../scripts/emulators/start-moto-server.js';
import { describeChunkQueueContract } from '../../contract/chunk-queue.contract.js';
import { describeJobStoreContract } from '../../contract/job-store.contract.js';
import { makeSqsHarness } from './sqs-harness.js';

// DynamoDB Local, not moto's DynamoDB: moto loses concurrent updates, and the contract checks exactly that.
// A missing java/python3+moto makes beforeAll throw, so these tests FAIL rather than skip.
const TABLE = 'rerank-jobs-test';
let dynamo: EmulatorHandle | undefined;
let moto: EmulatorHandle | undefined;
let dynamoClient: DynamoDBClient;
let sqsClient: SQSClient;

beforeAll(async () => {
  const [d, m] = await Promise.allSettled([startDynamoDbLocal(), startMotoServer()]);
  dynamo = d.status === 'fulfilled' ? d.value : undefined;
  moto = m.status === 'fulfilled' ? m.value : undefined;
  if (d.status === 'rejected') throw d.reason;
  if (m.status === 'rejected') throw m.reason;
  dynamoClient = new DynamoDBClient(localAwsConfig(dynamo!.endpoint));
  sqsClient = new SQSClient(localAwsConfig(moto!.endpoint));
  await createJobsTable(dynamoClient, TABLE);
});

afterAll(async () => {
  dynamoClient?.destroy();
  sqsClient?.destroy();
  await Promise.all([dynamo?.stop(), moto?.stop()]);
});

describeJobStoreContract('DynamoDB Local', () => new DynamoDbJobStore(TABLE, dynamoClient));
describeChunkQueueContract('SQS on moto', () => makeSqsHarness(sqsClient));
