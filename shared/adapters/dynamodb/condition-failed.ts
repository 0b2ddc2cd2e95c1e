import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';

/**
 * Whether a write was refused by its condition: a single-item ConditionalCheckFailed, or a transaction that
 * some item's condition cancelled (`at`: only the item at that position of the transaction). The one place the
 * SDK's two shapes of "the condition said no" are told apart from real failures.
 */
export function isConditionFailure(error: unknown, at?: number): boolean {
  if (error instanceof ConditionalCheckFailedException) return at === undefined;
  if (!(error instanceof TransactionCanceledException)) return false;
  const reasons = error.CancellationReasons ?? [];
  return at === undefined ? reasons.some((r) => r.Code === 'ConditionalCheckFailed') : reasons[at]?.Code === 'ConditionalCheckFailed';
}
