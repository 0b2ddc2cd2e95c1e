import { fileHoldId } from '../files/file-quota.js';
import { logger } from '../observability/logger.js';
import type { BatchEngineDeps } from './batch-engine-deps.js';
import { ENDING_STATUSES, type BatchRecord } from './batch-model.js';
import { FinalizeLeaseLostError, type FinalizeLease } from './finalize-lease.js';

/**
 * The files a finalize attempt opened, recorded on the batch (`attemptFileIds`) before any byte of them is visible.
 * An attempt that fails after closing a file and then cannot delete it (the delete itself faulted, or the worker died)
 * would leave a file the batch never names, listed to its key and counted on its stored bytes until its retention
 * ran out. With the ids on the record, the next finalizer, the dead-letter recovery and every later delivery of a
 * finalize task delete what the batch does not name: nothing depends on the failed attempt cleaning up after itself.
 */
export async function recordAttemptFiles(
  deps: Pick<BatchEngineDeps, 'store'>,
  batchId: string,
  lease: FinalizeLease,
  fileIds: readonly string[],
): Promise<void> {
  // Conditional on the lease: a finalizer that lost it records nothing, and stops before it writes a byte.
  const recorded = await deps.store.update(batchId, ENDING_STATUSES, { attemptFileIds: [...fileIds] }, lease.owner);
  if (!recorded) throw new FinalizeLeaseLostError(batchId);
}

/**
 * Deletes the recorded files of earlier attempts that the batch does not name, and gives back their file holds (both
 * are no-ops for a file never closed or already gone). Run by a finalizer right after it takes the lease (no earlier
 * attempt may record more then) and on an ended batch. Throws when a delete fails: the ids stay recorded for the next try.
 */
export async function removeAttemptFiles(deps: Pick<BatchEngineDeps, 'files' | 'quota'>, batch: BatchRecord): Promise<void> {
  const named = new Set([batch.outputFileId, batch.errorFileId]);
  const stale = (batch.attemptFileIds ?? []).filter((id) => !named.has(id));
  if (stale.length > 0) logger.warn('files of failed finalize attempts removed', { batchId: batch.id, fileIds: stale });
  await deleteBatchFiles(deps, batch, stale);
}

/** Deletes files a finalizer wrote that are not (or no longer) the batch's, and gives back their file holds. */
export async function deleteBatchFiles(
  deps: Pick<BatchEngineDeps, 'files' | 'quota'>,
  batch: Pick<BatchRecord, 'ownerKeyId'>,
  fileIds: readonly string[],
): Promise<void> {
  for (const id of fileIds) {
    await deps.files.delete(id);
    await deps.quota.ledger.release(batch.ownerKeyId, fileHoldId(id));
  }
}

/**
 * On an ended batch: the files of failed attempts go, then the record forgets them (conditional on the status it
 * ended with), so later deliveries of its tasks find nothing to do.
 */
export async function clearAttemptFiles(deps: Pick<BatchEngineDeps, 'files' | 'quota' | 'store'>, batch: BatchRecord): Promise<void> {
  if ((batch.attemptFileIds ?? []).length === 0) return;
  await removeAttemptFiles(deps, batch);
  await deps.store.update(batch.id, [batch.status], { attemptFileIds: [] });
}
