import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { createJobsTable } from '../../../scripts/emulators/create-jobs-table.js';
import { DynamoDbQuotaLedger } from '../../../shared/adapters/dynamodb/dynamodb-quota-ledger.js';
import type { EmulatorHandle } from '../../../scripts/emulators/emulator-handle.js';
import { localAwsConfig } from '../../../scripts/emulators/local-aws-config.js';
import { startDynamoDbLocal } from '../../../scripts/emulators/start-dynamodb-local.js';
import { expectBoundUnderParallelCreates, pairsRuntime } from '../../support/queued-pairs-scenario.js';

// The queued-pairs bound on the AWS backend's ledger: DynamoDB Local's transactions, 10 planners racing for one key.
const TABLE = 'rerank-queued-pairs-test';
let dynamo: EmulatorHandle | undefined;
let client: DynamoDBClient;

beforeAll(async () => {
  dynamo = await startDynamoDbLocal();
  client = new DynamoDBClient(localAwsConfig(dynamo.endpoint));
  await createJobsTable(client, TABLE);
});

afterAll(async () => {
  client?.destroy();
  await dynamo?.stop();
});

describe('queued pairs on the DynamoDB Local quota ledger', () => {
  it('holds the bound under 10 parallel creates planned at once (3 of 10 fit; every end gives its pairs back)', async () => {
    await expectBoundUnderParallelCreates(pairsRuntime(70, {}, new DynamoDbQuotaLedger(client, TABLE)));
  });
});
