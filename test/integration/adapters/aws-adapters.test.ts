import { DynamoDBClient, ScanCommand, type AttributeValue } from '@aws-sdk/client-dynamodb';
import { DeleteMessageCommand, ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { SqsTaskQueue } from '../../../shared/adapters/sqs/sqs-task-queue.js';
import { createChunkQueues } from '../../../scripts/emulators/create-chunk-queues.js';
import type { BatchTask } from '../../../shared/batches/batch-model.js';
import { decodeBatchTask } from '../../../shared/engine/task-codec.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createJobsTable } from '../../../scripts/emulators/create-jobs-table.js';
import { DynamoDbJobStore } from '../../../shared/adapters/dynamodb/dynamodb-job-store.js';
import type { EmulatorHandle } from '../../../scripts/emulators/emulator-handle.js';
import { localAwsConfig } from '../../../scripts/emulators/local-aws-config.js';
import { startDynamoDbLocal } from '../../../scripts/emulators/start-dynamodb-local.js';
import { startMotoServer } from '../../../scripts/emulators/start-moto-server.js';
import { describeTaskQueueContract } from '../../contract/task-queue.contract.js';
import { describeJobStoreContract } from '../../contract/job-store.contract.js';
import { DynamoDbBatchStore } from '../../../shared/adapters/dynamodb/dynamodb-batch-store.js';
import { DynamoDbChunkLedger } from '../../../shared/adapters/dynamodb/dynamodb-chunk-ledger.js';
import { describeBatchStoreContract } from '../../contract/batch-store.contract.js';
import { describeChunkLedgerContract } from '../../contract/chunk-ledger.contract.js';
import { describeUploadStoreContract } from '../../contract/upload-store.contract.js';
import { DynamoDbUploadStore } from '../../../shared/adapters/dynamodb/dynamodb-upload-store.js';
import { makeSqsHarness } from './sqs-harness.js';
import { DynamoDbQuotaLedger } from '../../../shared/adapters/dynamodb/dynamodb-quota-ledger.js';
import { describeQuotaLedgerContract } from '../../contract/quota-ledger.contract.js';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { S3FileStore } from '../../../shared/adapters/s3/s3-file-store.js';
import { MIN_S3_PART_BYTES } from '../../../shared/adapters/s3/s3-multipart-writer.js';
import { describeFileStoreContract } from '../../contract/file-store.contract.js';
import { DynamoDbApiKeyStore } from '../../../shared/adapters/dynamodb/keys/dynamodb-api-key-store.js';
import { DynamoDbRateLimiter } from '../../../shared/adapters/dynamodb/keys/dynamodb-rate-limiter.js';
import { describeApiKeyStoreContract } from '../../contract/key-store.contract.js';
import { describeRateLimiterContract } from '../../contract/rate-limiter.contract.js';
import { assertKeysCliRoundTrip } from '../../unit/auth/keys-cli-round-trip.js';

// DynamoDB Local, not moto's DynamoDB: moto loses concurrent updates, and the contract checks exactly that.
// A missing java/python3+moto makes beforeAll throw, so these tests FAIL rather than skip.
const TABLE = 'rerank-jobs-test';
let dynamo: EmulatorHandle | undefined;
let moto: EmulatorHandle | undefined;
let dynamoClient: DynamoDBClient;
let sqsClient: SQSClient;
let s3Client: S3Client;

beforeAll(async () => {
  const [d, m] = await Promise.allSettled([startDynamoDbLocal(), startMotoServer()]);
  dynamo = d.status === 'fulfilled' ? d.value : undefined;
  moto = m.status === 'fulfilled' ? m.value : undefined;
  if (d.status === 'rejected') throw d.reason;
  if (m.status === 'rejected') throw m.reason;
  dynamoClient = new DynamoDBClient(localAwsConfig(dynamo!.endpoint));
  sqsClient = new SQSClient(localAwsConfig(moto!.endpoint));
  s3Client = new S3Client({ ...localAwsConfig(moto!.endpoint), forcePathStyle: true });
  await createJobsTable(dynamoClient, TABLE);
});

afterAll(async () => {
  dynamoClient?.destroy();
  sqsClient?.destroy();
  s3Client?.destroy();
  await Promise.all([dynamo?.stop(), moto?.stop()]);
});

describeJobStoreContract('DynamoDB Local', () => new DynamoDbJobStore(TABLE, dynamoClient));
describeBatchStoreContract('DynamoDB Local', () => new DynamoDbBatchStore(dynamoClient, TABLE));
describeChunkLedgerContract('DynamoDB Local', () => new DynamoDbChunkLedger(dynamoClient, TABLE));
describeUploadStoreContract('DynamoDB Local', () => new DynamoDbUploadStore(dynamoClient, TABLE));
describeQuotaLedgerContract('DynamoDB Local', () => new DynamoDbQuotaLedger(dynamoClient, TABLE));
describeTaskQueueContract('SQS on moto', (lane) => makeSqsHarness(sqsClient, lane));
let buckets = 0;
describeFileStoreContract('S3 on moto', async (now) => {
  // A bucket per test: listing and usage start empty, as on the other stores.
  const bucket = `rerank-files-contract-${(buckets += 1)}`;
  await s3Client.send(new CreateBucketCommand({ Bucket: bucket }));
  return new S3FileStore(s3Client, bucket, { partBytes: MIN_S3_PART_BYTES, now });
});

// Auth ports (issue 7) on the same table as the jobs: key items, rate windows and job slots.
const scanTable = async (): Promise<string> => {
  const items: unknown[] = [];
  let startKey: Record<string, AttributeValue> | undefined;
  do {
    // Only the auth items (KEY#..., KEYS): job pages are large and hold no keys.
    const page = await dynamoClient.send(
      new ScanCommand({
        TableName: TABLE,
        FilterExpression: 'begins_with(pk, :key)',
        ExpressionAttributeValues: { ':key': { S: 'KEY' } },
        ExclusiveStartKey: startKey,
        ConsistentRead: true,
      }),
    );
    items.push(...(page.Items ?? []));
    startKey = page.LastEvaluatedKey;
  } while (startKey !== undefined);
  return JSON.stringify(items);
};
describeApiKeyStoreContract('DynamoDB Local', () => ({ store: new DynamoDbApiKeyStore(TABLE, dynamoClient), storedText: scanTable }));
describeRateLimiterContract('DynamoDB Local', () => new DynamoDbRateLimiter(TABLE, dynamoClient));

describe('npm run keys --table (DynamoDB Local)', () => {
  it('creates, lists and revokes in the table; the key is printed once and stored nowhere', async () => {
    const env = { AWS_ACCESS_KEY_ID: 'local', AWS_SECRET_ACCESS_KEY: 'local', AWS_REGION: 'us-east-1', AWS_PROFILE: '' };
    await assertKeysCliRoundTrip(['--table', TABLE, '--endpoint', dynamo!.endpoint], scanTable, env);
  });
});

describe('SqsTaskQueue (batch lane) on moto', () => {
  it('sends plan, chunk and finalize tasks as small reference messages that decode back to the same tasks', async () => {
    const queues = await createChunkQueues(sqsClient, `batch-tasks-${Date.now()}`, { maxReceiveCount: 3, visibilityTimeoutSeconds: 30 });
    const tasks: BatchTask[] = [
      { kind: 'plan', batchId: 'batch_sqs' },
      ...Array.from(
        { length: 23 },
        (_, i): BatchTask => ({
          kind: 'chunk',
          batchId: 'batch_sqs',
          line: 1 + (i % 5),
          chunkIndex: i,
          offset: i * 64,
          count: 64,
          corpusRange: { start: i * 4096, end: (i + 1) * 4096 },
        }),
      ),
      { kind: 'finalize', batchId: 'batch_sqs' },
    ];
    await new SqsTaskQueue<BatchTask>(sqsClient, queues.queueUrl, 'batch').send(tasks);
    const received: BatchTask[] = [];
    for (let round = 0; received.length < tasks.length && round < 30; round += 1) {
      const out = await sqsClient.send(
        new ReceiveMessageCommand({ QueueUrl: queues.queueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 1 }),
      );
      for (const message of out.Messages ?? []) {
        expect(Buffer.byteLength(message.Body ?? '')).toBeLessThan(300);
        received.push(decodeBatchTask(message.Body ?? ''));
        await sqsClient.send(new DeleteMessageCommand({ QueueUrl: queues.queueUrl, ReceiptHandle: message.ReceiptHandle }));
      }
    }
    const key = (t: BatchTask) => JSON.stringify(t);
    expect(received.map(key).sort()).toEqual(tasks.map(key).sort());
  });

  it("names each message's tenant (the key id) as its MessageGroupId: SQS fair queues share the workers across keys", async () => {
    const queues = await createChunkQueues(sqsClient, `fair-tasks-${Date.now()}`, { maxReceiveCount: 3, visibilityTimeoutSeconds: 30 });
    const queue = new SqsTaskQueue<BatchTask>(sqsClient, queues.queueUrl, 'batch');
    await queue.send([{ kind: 'chunk', batchId: 'batch_a', line: 1, chunkIndex: 0, offset: 0, count: 8 }], { tenant: 'key-a-id' });
    await queue.send([{ kind: 'finalize', batchId: 'batch_b' }]);
    const groups = new Map<string, string | undefined>();
    for (let round = 0; groups.size < 2 && round < 30; round += 1) {
      const out = await sqsClient.send(
        new ReceiveMessageCommand({
          QueueUrl: queues.queueUrl,
          MaxNumberOfMessages: 10,
          WaitTimeSeconds: 1,
          MessageSystemAttributeNames: ['MessageGroupId'],
        }),
      );
      for (const message of out.Messages ?? []) {
        groups.set(decodeBatchTask(message.Body ?? '').batchId, message.Attributes?.MessageGroupId);
        await sqsClient.send(new DeleteMessageCommand({ QueueUrl: queues.queueUrl, ReceiptHandle: message.ReceiptHandle }));
      }
    }
    // A task sent without a tenant has no group: SQS counts it as a tenant of its own.
    expect(Object.fromEntries(groups)).toEqual({ batch_a: 'key-a-id', batch_b: undefined });
  });
});
