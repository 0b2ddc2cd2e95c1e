import { TransactionCanceledException, type DynamoDBClient, type TransactWriteItemsCommand } from '@aws-sdk/client-dynamodb';
import { isConditionFailure } from './condition-failed.js';

/** Cancellation codes that say "try again", not "your condition is false". */
const TRANSIENT = new Set(['TransactionConflict', 'ThrottlingError', 'ProvisionedThroughputExceeded']);

/**
 * Concurrent workers bumping the same META counter make DynamoDB cancel all but one transaction with
 * `TransactionConflict`; the SDK does not retry those, so we do, with jittered exponential backoff.
 * Condition failures are rethrown at once for the caller to interpret.
 */
export async function sendTransactionWithRetry(
  client: DynamoDBClient,
  command: TransactWriteItemsCommand,
  maxAttempts = 10,
  baseDelayMs = 10,
): Promise<void> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      await client.send(command);
      return;
    } catch (error) {
      const transient =
        error instanceof TransactionCanceledException &&
        (error.CancellationReasons ?? []).some((r) => r.Code !== undefined && TRANSIENT.has(r.Code)) &&
        !isConditionFailure(error);
      if (!transient || attempt >= maxAttempts) throw error;
      const delay = Math.random() * baseDelayMs * 2 ** attempt;
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
}
