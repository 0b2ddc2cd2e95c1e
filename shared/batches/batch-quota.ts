import { RerankError } from '../core/rerank-error.js';
import { FileNotFoundError } from '../files/file-errors.js';
import type { FileRecord, FileStore } from '../files/file-store.js';
import { derivedHold, fileHold } from '../files/file-quota.js';
import { QuotaExceededError, type QuotaAmounts, type QuotaLedger } from '../quota/quota-ledger.js';
import { logger } from '../observability/logger.js';
import type { BatchRecord, BatchRequestResult } from './batch-model.js';
import { DOCUMENTS_FILE_ID } from './corpus-reference.js';
import { holdRunning, releaseRunning } from '../engine/hold-running.js';

/**
 * How a batch sits on its key's quota ledger (the one the Files API reserves on): while it runs it holds one running
 * batch (`batch:<id>`), and every result line it keeps holds its bytes of the key's stored bytes as it is written
 * (`batch-line:<id>:<line>`, exactly once per line whatever the redeliveries), so a batch's output can never pass what
 * the key may store. When the batch ends, its output and error files take their own file holds and the line holds go.
 */
export interface BatchQuota {
  readonly ledger: QuotaLedger;
  /** running_batches (RERANK_BATCH_MAX_RUNNING) and the key's files / stored_bytes (RERANK_FILES_MAX_*). */
  readonly limits: QuotaAmounts;
}

/** A hold left by a process that died before releasing it frees itself this long after the batch's window. */
export const STALE_HOLD_GRACE_SECONDS = 86_400;

/**
 * A batch's one hold on its key's `queued_pairs` (documents x query lines of the lines it has queued): taken and grown
 * by the planner (queued-pairs.ts), given back with the running batch.
 */
export const queuedPairsHoldId = (batchId: string): string => `batch-pairs:${batchId}`;
// The trailing colon keeps one batch's prefix from matching another's ids.
const lineHoldPrefix = (batchId: string): string => `batch-line:${batchId}:`;
const lineHoldId = (batchId: string, line: number): string => `${lineHoldPrefix(batchId)}${line}`;

/** Takes one of the key's running batches for this batch (a retried create takes nothing more: false); 429 at the limit. */
export function takeRunningBatch(quota: BatchQuota, batch: Pick<BatchRecord, 'id' | 'ownerKeyId' | 'expiresAt'>): Promise<boolean> {
  const owner = { id: batch.id, ownerKeyId: batch.ownerKeyId, holdUntil: batch.expiresAt + STALE_HOLD_GRACE_SECONDS };
  return holdRunning(quota.ledger, 'batch', owner, quota.limits.running_batches ?? Infinity);
}

/**
 * Gives the running batch and its queued pairs back once the batch has ended, at every end (safe to call again: a
 * second release finds nothing).
 */
export async function releaseRunningBatch(quota: BatchQuota, batch: Pick<BatchRecord, 'id' | 'ownerKeyId'>): Promise<void> {
  await quota.ledger.release(batch.ownerKeyId, queuedPairsHoldId(batch.id));
  await releaseRunning(quota.ledger, 'batch', batch);
}

/**
 * Charges a result line's bytes (with its newline) to the key's stored bytes before the line is kept. False when the
 * key's quota would pass: the line is not kept, and the batch must end (with what it has).
 */
export async function chargeResultLine(
  quota: BatchQuota,
  batch: Pick<BatchRecord, 'id' | 'ownerKeyId' | 'expiresAt'>,
  result: BatchRequestResult,
): Promise<boolean> {
  const bytes = Buffer.byteLength(result.jsonl, 'utf8') + 1;
  const hold = {
    id: lineHoldId(batch.id, result.line),
    amounts: { stored_bytes: bytes },
    expiresAt: batch.expiresAt + STALE_HOLD_GRACE_SECONDS,
  };
  try {
    await quota.ledger.reserve(batch.ownerKeyId, hold, { stored_bytes: quota.limits.stored_bytes ?? Infinity });
    return true;
  } catch (error) {
    if (!(error instanceof QuotaExceededError)) throw error;
    logger.warn('batch output passes the key quota', { batchId: batch.id, line: result.line, used: error.used, limit: error.limit });
    return false;
  }
}

/** Gives back what a result line held (a line charged again by a task that ran after its batch ended). */
export async function releaseResultLine(quota: BatchQuota, batch: Pick<BatchRecord, 'id' | 'ownerKeyId'>, line: number): Promise<void> {
  await quota.ledger.release(batch.ownerKeyId, lineHoldId(batch.id, line));
}

/**
 * The batch's files take over what its lines held: each file takes its own hold (unconditionally: the lines' holds
 * already paid for these bytes), then the line holds go. Over-counting for a moment is the safe direction.
 */
export async function transferToFiles(
  quota: BatchQuota,
  batch: Pick<BatchRecord, 'id' | 'ownerKeyId'>,
  files: readonly (FileRecord | undefined)[],
): Promise<void> {
  for (const file of files) if (file) await quota.ledger.reserve(batch.ownerKeyId, fileHold(file), {});
  await releaseLineHolds(quota, batch);
}

/**
 * Gives back every line hold the batch has on the ledger, found by their id prefix rather than by the lines the store
 * kept: a hold a redelivered task charged for a line the store already had, or charged after the results were read,
 * is found too. Safe to repeat: a hold goes once.
 */
export async function releaseLineHolds(quota: BatchQuota, batch: Pick<BatchRecord, 'id' | 'ownerKeyId'>): Promise<number> {
  return quota.ledger.releaseWhere(batch.ownerKeyId, lineHoldPrefix(batch.id));
}

/**
 * Stores a corpus shard charged to the key whose batch analysed it (stored analyses count against the key's quota),
 * expiring with the corpus file and released with it when it is deleted (`derivedHoldPrefix`). A hold is taken only for
 * a file that exists (a deleted one: FileNotFoundError, nothing held), and one taken for a write that then fails (the
 * file deleted meanwhile) is given back. A key whose stored bytes would pass the limit gets a refusal naming the quota:
 * its lines are refused, never served by analysing the corpus again for every group.
 */
export async function storeDerived(
  quota: BatchQuota,
  files: FileStore,
  ref: { readonly fileId: string; readonly ownerKeyId?: string },
  name: string,
  bytes: Uint8Array,
): Promise<void> {
  if (ref.ownerKeyId === undefined) return files.putDerived(ref.fileId, name, bytes);
  const file = await files.get(ref.fileId);
  if (file === undefined) throw new FileNotFoundError(ref.fileId);
  const hold = derivedHold(file, name, bytes.byteLength);
  let taken: boolean;
  try {
    taken = await quota.ledger.reserve(ref.ownerKeyId, hold, { stored_bytes: quota.limits.stored_bytes ?? Infinity });
  } catch (error) {
    if (!(error instanceof QuotaExceededError)) throw error;
    logger.warn('corpus shard not stored: the key quota is full', { fileId: ref.fileId, used: error.used, limit: error.limit });
    throw storedBytesRefusal(ref.fileId, error);
  }
  try {
    await files.putDerived(ref.fileId, name, bytes);
  } catch (error) {
    // Only a hold this call took: one already held is another writer's, of the same object.
    if (taken) await quota.ledger.release(ref.ownerKeyId, hold.id);
    throw error;
  }
}

/** A line over a corpus whose analysis the key cannot store: a 429 naming the stored-bytes quota and its figures. */
export const storedBytesRefusal = (fileId: string, error: QuotaExceededError): RerankError =>
  new RerankError(
    'rate_limited',
    `the analysis of ${DOCUMENTS_FILE_ID} '${fileId}' cannot be stored: this key holds ${error.used} stored bytes of at most ${error.limit} ` +
      `(RERANK_FILES_MAX_STORED_BYTES) and a shard needs ${error.requested} more; delete files, then send the line again`,
    { cause: error },
  );
