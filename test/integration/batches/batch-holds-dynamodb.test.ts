import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { createJobsTable } from '../../../scripts/emulators/create-jobs-table.js';
import { DynamoDbQuotaLedger } from '../../../shared/adapters/dynamodb/dynamodb-quota-ledger.js';
import type { EmulatorHandle } from '../../../scripts/emulators/emulator-handle.js';
import { localAwsConfig } from '../../../scripts/emulators/local-aws-config.js';
import { startDynamoDbLocal } from '../../../scripts/emulators/start-dynamodb-local.js';
import { expectCorpusDeletedMidAnalysis } from '../../support/corpus-holds-scenario.js';
import { expectBoundUnderParallelCreates, pairsRuntime } from '../../support/queued-pairs-scenario.js';

// The batch engine's holds on the AWS backend's ledger (DynamoDB Local's transactions): the queued-pairs bound with 10
// planners racing for one key, and a corpus' shard hold when the corpus is deleted mid-analysis.
const TABLE = 'rerank-batch-holds-test';
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

describe("a corpus' stored analysis on the DynamoDB Local quota ledger", () => {
  it('ends the lines of a corpus deleted mid-analysis with file_not_found and holds nothing for the shard (no hold without an expiry)', async () => {
    await expectCorpusDeletedMidAnalysis(new DynamoDbQuotaLedger(client, TABLE));
  });
});
