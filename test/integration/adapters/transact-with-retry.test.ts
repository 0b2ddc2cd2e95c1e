import { TransactionCanceledException, TransactWriteItemsCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import { sendTransactionWithRetry } from '../../../shared/adapters/dynamodb/transact-with-retry.js';

// DynamoDB Local serializes transactions, so TransactionConflict (common on AWS with concurrent workers) never
// happens there; this pins the retry rule with a scripted client instead.
const cancelled = (...codes: string[]) =>
  new TransactionCanceledException({ message: 'cancelled', $metadata: {}, CancellationReasons: codes.map((Code) => ({ Code })) });

function scriptedClient(outcomes: (Error | undefined)[]) {
  let calls = 0;
  const client = {
    send: async () => {
      const outcome = outcomes[calls++];
      if (outcome !== undefined) throw outcome;
      return {};
    },
  } as unknown as DynamoDBClient;
  return { client, calls: () => calls };
}

describe('sendTransactionWithRetry', () => {
  const command = new TransactWriteItemsCommand({ TransactItems: [] });

  it('retries TransactionConflict cancellations until the transaction goes through', async () => {
    const s = scriptedClient([cancelled('None', 'TransactionConflict'), cancelled('TransactionConflict', 'None'), undefined]);
    await sendTransactionWithRetry(s.client, command, 5, 1);
    expect(s.calls()).toBe(3);
  });

  it('rethrows condition failures at once, even alongside a conflict', async () => {
    const s = scriptedClient([cancelled('ConditionalCheckFailed', 'TransactionConflict')]);
    await expect(sendTransactionWithRetry(s.client, command, 5, 1)).rejects.toBeInstanceOf(TransactionCanceledException);
    expect(s.calls()).toBe(1);
  });

  it('gives up after maxAttempts', async () => {
    const s = scriptedClient(Array.from({ length: 10 }, () => cancelled('TransactionConflict', 'None')));
    await expect(sendTransactionWithRetry(s.client, command, 3, 1)).rejects.toBeInstanceOf(TransactionCanceledException);
    expect(s.calls()).toBe(3);
  });
});
