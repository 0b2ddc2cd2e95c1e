import {
  CreateTableCommand,
  DescribeTimeToLiveCommand,
  ResourceInUseException,
  UpdateTimeToLiveCommand,
  waitUntilTableExists,
  type DynamoDBClient,
} from '@aws-sdk/client-dynamodb';
import { JOB_TABLE_PARTITION_KEY, JOB_TABLE_SORT_KEY, JOB_TABLE_TTL_ATTRIBUTE } from '../../shared/adapters/dynamodb/job-table-keys.js';

/**
 * Creates the jobs table for emulators and tests (the CDK stack owns the real one, with the same keys):
 * on-demand billing, string pk/sk, TTL on `ttl`. Idempotent, so a shared emulator can be provisioned twice.
 */
export async function createJobsTable(client: DynamoDBClient, tableName: string): Promise<void> {
  try {
    await client.send(
      new CreateTableCommand({
        TableName: tableName,
        BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: [
          { AttributeName: JOB_TABLE_PARTITION_KEY, AttributeType: 'S' },
          { AttributeName: JOB_TABLE_SORT_KEY, AttributeType: 'S' },
        ],
        KeySchema: [
          { AttributeName: JOB_TABLE_PARTITION_KEY, KeyType: 'HASH' },
          { AttributeName: JOB_TABLE_SORT_KEY, KeyType: 'RANGE' },
        ],
      }),
    );
  } catch (error) {
    if (!(error instanceof ResourceInUseException)) throw error;
  }
  await waitUntilTableExists({ client, maxWaitTime: 60, minDelay: 1 }, { TableName: tableName });
  // UpdateTimeToLive rejects a second enable, so only enable when it is not on yet.
  const ttl = await client.send(new DescribeTimeToLiveCommand({ TableName: tableName }));
  if (ttl.TimeToLiveDescription?.TimeToLiveStatus === 'ENABLED') return;
  await client.send(
    new UpdateTimeToLiveCommand({
      TableName: tableName,
      TimeToLiveSpecification: { AttributeName: JOB_TABLE_TTL_ATTRIBUTE, Enabled: true },
    }),
  );
}
