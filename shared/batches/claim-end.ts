import { randomUUID } from 'node:crypto';
import type { BatchEngineDeps } from './batch-engine-deps.js';
import type { BatchRecord, BatchStatus } from './batch-model.js';
import { updateBatch } from './update-batch.js';

/**
 * The transition that claims a batch's end (completion, quota, expiry, cancel): a conditional update whose winner alone
 * sends the finalize task. It carries a claim id, so a winner whose answer was lost - the write applied, then the call
 * threw, or its retry found its own write and failed the condition - still knows it won and sends the task; otherwise
 * nobody would until the sweep.
 */
export async function claimEnd(
  deps: Pick<BatchEngineDeps, 'store' | 'quota'>,
  batchId: string,
  from: readonly BatchStatus[],
  patch: Partial<Omit<BatchRecord, 'id' | 'ownerKeyId'>>,
): Promise<BatchRecord | undefined> {
  const endClaim = randomUUID();
  let claimed: BatchRecord | undefined;
  try {
    claimed = await updateBatch(deps, batchId, from, { ...patch, endClaim });
  } catch (error) {
    const current = await deps.store.get(batchId);
    if (current?.endClaim === endClaim) return current;
    throw error;
  }
  if (claimed) return claimed;
  const current = await deps.store.get(batchId);
  return current?.endClaim === endClaim ? current : undefined;
}
