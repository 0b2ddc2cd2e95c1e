import { logger } from '../observability/logger.js';
import type { BatchEngineDeps } from './batch-engine-deps.js';
import { nowSeconds } from './batch-engine-deps.js';
import type { BatchRecord, BatchRequestResult } from './batch-model.js';
import { chargeResultLine, releaseResultLine } from './batch-quota.js';
import { isTerminal } from './batch-model.js';
import { claimEnd } from './claim-end.js';

/**
 * Keeps a request's result line once, its bytes charged to the key's stored-bytes quota first. A line that would pass
 * the quota is not kept: the batch ends `failed` (quota_exceeded) with the output it has, as OpenAI ends a batch that
 * passes a limit. True when this call kept the line.
 */
export async function keepResult(
  deps: BatchEngineDeps,
  batch: Pick<BatchRecord, 'id' | 'ownerKeyId' | 'expiresAt'>,
  result: BatchRequestResult,
): Promise<boolean> {
  if (await chargeResultLine(deps.quota, batch, result)) {
    const kept = await deps.store.putResult(batch.id, result);
    // A task that ran on after its batch ended (a redelivery, a worker that outlived the finalizer) charged a line the
    // finalizer had already handed to the files (or dropped): nothing holds those bytes now but this charge.
    const current = await deps.store.get(batch.id);
    if (!current || isTerminal(current.status)) {
      await releaseResultLine(deps.quota, batch, result.line);
      return false;
    }
    return kept;
  }
  const claimed = await claimEnd(deps, batch.id, ['validating', 'in_progress'], {
    status: 'finalizing',
    finalizingAt: nowSeconds(deps),
    ending: 'quota_exceeded',
  });
  // From in_progress the finalizer is sent now; a planner still validating sees the move and hands over itself.
  if (claimed && claimed.planned) await deps.queue.send([{ kind: 'finalize', batchId: batch.id }]);
  if (claimed) logger.warn('batch ended: its output passes the key quota', { batchId: batch.id });
  return false;
}
