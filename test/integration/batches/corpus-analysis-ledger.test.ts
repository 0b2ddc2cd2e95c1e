import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createJobsTable } from '../../../scripts/emulators/create-jobs-table.js';
import type { EmulatorHandle } from '../../../scripts/emulators/emulator-handle.js';
import { localAwsConfig } from '../../../scripts/emulators/local-aws-config.js';
import { startDynamoDbLocal } from '../../../scripts/emulators/start-dynamodb-local.js';
import { DynamoDbCorpusAnalysisLedger } from '../../../shared/adapters/dynamodb/dynamodb-corpus-analysis-ledger.js';
import { InMemoryCorpusAnalysisLedger } from '../../../shared/adapters/memory/in-memory-corpus-analysis-ledger.js';
import type { CorpusAnalysisLedger } from '../../../shared/batches/corpus-analysis-ledger.js';

// One contract for both adapters: the in-memory one (npm start) and the DynamoDB one against DynamoDB Local.
const TABLE = 'rerank-corpus-analysis-test';
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

const adapters: [string, () => CorpusAnalysisLedger][] = [
  ['in memory', () => new InMemoryCorpusAnalysisLedger()],
  ['DynamoDB Local', () => new DynamoDbCorpusAnalysisLedger(client, TABLE)],
];

describe.each(adapters)('CorpusAnalysisLedger (%s)', (_name, make) => {
  it('sums the expected analyses, keeps the first expectation, and never lets a report lower a span or unset encoded', async () => {
    const ledger = make();
    const batch = `batch_${Math.random().toString(36).slice(2)}`;
    expect(await ledger.read(batch)).toBeUndefined();
    await ledger.expect(batch, 'corpus-a', 100);
    await ledger.expect(batch, 'corpus-a', 999);
    await ledger.expect(batch, 'corpus-b', 50);
    expect(await ledger.read(batch)).toEqual({ total: 150, ready: 0, encoded: false });

    await ledger.report(batch, 'corpus-a', 0, { ready: 30, encoded: true });
    await ledger.report(batch, 'corpus-a', 64, { ready: 20, encoded: false });
    // A retried task counts its span from zero again, its shards read back: nothing goes back.
    await ledger.report(batch, 'corpus-a', 0, { ready: 10, encoded: false });
    expect(await ledger.read(batch)).toEqual({ total: 150, ready: 50, encoded: true });
    await ledger.report(batch, 'corpus-a', 0, { ready: 30, encoded: false });
    await ledger.report(batch, 'corpus-a', 0, { ready: 64, encoded: false });
    expect(await ledger.read(batch)).toEqual({ total: 150, ready: 84, encoded: true });

    // Spans past an analysis' documents are capped at them; a span of an analysis never expected is not counted.
    await ledger.report(batch, 'corpus-a', 128, { ready: 500, encoded: false });
    await ledger.report(batch, 'corpus-c', 0, { ready: 7, encoded: false });
    await ledger.report(batch, 'corpus-b', 0, { ready: 50, encoded: false });
    expect(await ledger.read(batch)).toEqual({ total: 150, ready: 150, encoded: true });
    expect(await ledger.read(`${batch}-other`)).toBeUndefined();
  });
});
