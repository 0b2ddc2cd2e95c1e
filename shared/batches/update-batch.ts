import { logger } from '../observability/logger.js';
import type { BatchEngineDeps } from './batch-engine-deps.js';
import { isTerminal, type BatchRecord, type BatchStatus } from './batch-model.js';
import { releaseRunningBatch } from './batch-quota.js';

/**
 * How the engine moves a batch: the store's conditional update, and - when the move won and ended the batch - its
 * running batch given back to the key's ledger. Every terminal transition goes through here, so none forgets it.
 */
export async function updateBatch(
  deps: Pick<BatchEngineDeps, 'store' | 'quota'>,
  batchId: string,
  from: readonly BatchStatus[],
  patch: Partial<Omit<BatchRecord, 'id' | 'ownerKeyId'>>,
  leaseOwner?: string,
): Promise<BatchRecord | undefined> {
  const updated = await deps.store.update(batchId, from, patch, leaseOwner);
  if (updated && isTerminal(updated.status)) {
    // A hold left taken frees itself after the batch's window; the batch itself has ended.
    await releaseRunningBatch(deps.quota, updated).catch((error: unknown) =>
      logger.error('running batch not released', { batchId, error: error as Error }),
    );
  }
  return updated;
}
