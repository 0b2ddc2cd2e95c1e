import { randomUUID } from 'node:crypto';
import { setTimeout } from 'node:timers/promises';
import type { FileRecord } from '../files/file-store.js';
import { logger } from '../observability/logger.js';
import { recordBatchEnded } from '../observability/record-batch-metrics.js';
import type { BatchEngineDeps } from './batch-engine-deps.js';
import { nowSeconds } from './batch-engine-deps.js';
import type { BatchEnding, BatchRecord, BatchRequestPlan, BatchRequestResult, BatchStatus, BatchTimestampField } from './batch-model.js';
import { failedLine } from './batch-output-lines.js';
import { ENDING_STATUSES, isTerminal } from './batch-model.js';
import { clearAttemptFiles, deleteBatchFiles, recordAttemptFiles, removeAttemptFiles } from './finalize-attempt-files.js';
import { FinalizeLease, FinalizeLeaseLostError } from './finalize-lease.js';
import { JsonlFileWriter } from './batch-file-writer.js';
import { releaseLineHolds, releaseRunningBatch, transferToFiles } from './batch-quota.js';
import { updateBatch } from './update-batch.js';

const FINAL: Readonly<Record<BatchEnding, { status: BatchStatus; at: BatchTimestampField; unfinished: string }>> = {
  completed: { status: 'completed', at: 'completedAt', unfinished: 'batch_failed' },
  cancelled: { status: 'cancelled', at: 'cancelledAt', unfinished: 'batch_cancelled' },
  expired: { status: 'expired', at: 'expiredAt', unfinished: 'batch_expired' },
  quota_exceeded: { status: 'failed', at: 'failedAt', unfinished: 'batch_failed' },
  queued_pairs_exceeded: { status: 'failed', at: 'failedAt', unfinished: 'batch_failed' },
};

const UNFINISHED_MESSAGE: Readonly<Record<BatchEnding, string>> = {
  completed: 'the request was not finished',
  cancelled: 'the batch was cancelled before this request finished',
  expired: 'the batch expired (completion_window) before this request finished',
  quota_exceeded: "the batch's output passed the key's stored-bytes quota before this request finished",
  queued_pairs_exceeded: "the batch failed (token_limit_exceeded: the key's queued pairs were at their bound) before this request finished",
};

const QUOTA_EXCEEDED = {
  code: 'quota_exceeded',
  message:
    "the batch's output would pass this key's stored-bytes quota (RERANK_FILES_MAX_STORED_BYTES): the output and error files hold what finished; delete files or split the batch",
};

/** Admitted requests and finished results, merged in line order; both streams are sorted by line. */
async function* byLine(
  requests: AsyncIterable<BatchRequestPlan>,
  results: AsyncIterable<BatchRequestResult>,
): AsyncGenerator<{ line: number; request?: BatchRequestPlan; result?: BatchRequestResult }> {
  const r = requests[Symbol.asyncIterator]();
  const o = results[Symbol.asyncIterator]();
  let request = await r.next();
  let result = await o.next();
  while (!request.done || !result.done) {
    const requestLine = request.done ? Infinity : request.value.line;
    const resultLine = result.done ? Infinity : result.value.line;
    const line = Math.min(requestLine, resultLine);
    yield {
      line,
      ...(requestLine === line ? { request: (request as IteratorYieldResult<BatchRequestPlan>).value } : {}),
      ...(resultLine === line ? { result: (result as IteratorYieldResult<BatchRequestResult>).value } : {}),
    };
    if (requestLine === line) request = await r.next();
    if (resultLine === line) result = await o.next();
  }
}

/** What a finalizer wrote: the files it closed (in the order it closed them) and the lines each holds. */
interface WrittenFiles {
  outputFile?: FileRecord;
  errorFile?: FileRecord;
  readonly closed: FileRecord[];
  completed: number;
  failed: number;
}

/**
 * The batch's end: streams every finished line to output.jsonl or errors.jsonl in the FileStore, writes the
 * unfinished ones (cancel, expiry) as `batch_cancelled` / `batch_expired` errors, and records the counts the
 * files hold. Run only by whoever won the transition that claimed it (`ending`), and then by one finalizer at a time:
 * it takes the batch's lease before it writes anything (`leaseOwner`: the task's message id, see FinalizeLease) and
 * returns at once while another finalizer's lease is live. Safe to run again after a crash.
 */
export async function finalizeBatch(deps: BatchEngineDeps, batchId: string, leaseOwner?: string): Promise<BatchRecord | undefined> {
  const batch = await deps.store.get(batchId);
  if (batch && isTerminal(batch.status)) await settleEndedBatch(deps, batch);
  if (!batch || !ENDING_STATUSES.includes(batch.status)) return batch;
  const lease = new FinalizeLease(deps, batchId, leaseOwner);
  const leased = await lease.take();
  if (!leased) {
    logger.info('batch end left to the finalizer holding its lease', { batchId });
    return undefined;
  }
  // Files this run closed, and whether its update made them the batch's: a run that fails or loses after closing them
  // deletes them (and their quota holds), or every retry would leave a pair behind.
  const written: WrittenFiles = { closed: [], completed: 0, failed: 0 };
  let ended = false;
  try {
    // Earlier attempts' files first: none can record more now that this run holds the lease.
    await removeAttemptFiles(deps, leased);
    await writeFiles(deps, batch, lease, written);
    const done = await endWith(deps, batch, lease, written);
    ended = done !== undefined;
    return done;
  } catch (error) {
    if (!ended) await discardUnnamed(deps, batch, written.closed);
    // Another finalizer took the lease (this one outran it): the end is its now, and this delivery did its part.
    if (error instanceof FinalizeLeaseLostError) {
      logger.warn('batch finalizer lost its lease; its files discarded', { batchId });
      return undefined;
    }
    await lease.giveUp();
    throw error;
  }
}

/**
 * What an ended batch may still owe, given again on every later delivery of its finalize task (both idempotent): its
 * running hold, whose release after the end may have failed, and the files of a failed finalize attempt, should the
 * batch have ended (a dead-letter recovery, which sends the task for this) while one was writing. Either failing
 * throws, so the task is delivered again.
 */
async function settleEndedBatch(deps: BatchEngineDeps, batch: BatchRecord): Promise<void> {
  await releaseRunningBatch(deps.quota, batch);
  await clearAttemptFiles(deps, batch);
}

/**
 * A finalize makes tens of storage calls (reads, file writes, lease and ledger writes), so one throttled or lost call
 * among them is common under load; the whole run is safe to repeat, and repeating it here costs a backoff instead of a
 * queue's visibility timeout and one of the task's few deliveries. One lease owner over every try, so a try whose
 * lease was not given back takes it again at once.
 */
export const FINALIZE_TRIES = 3;
const FINALIZE_BACKOFF_MS = 200;

export async function finalizeWithRetries(
  deps: BatchEngineDeps,
  batchId: string,
  leaseOwner: string = randomUUID(),
): Promise<BatchRecord | undefined> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await finalizeBatch(deps, batchId, leaseOwner);
    } catch (error) {
      if (attempt >= FINALIZE_TRIES) throw error;
      logger.warn('batch finalize failed; trying again', { batchId, attempt, error: error as Error });
      await setTimeout(Math.random() * FINALIZE_BACKOFF_MS * 2 ** attempt);
    }
  }
}

/** Streams the batch's lines into its output and error files, each opened under a renewed lease. */
async function writeFiles(deps: BatchEngineDeps, batch: BatchRecord, lease: FinalizeLease, written: WrittenFiles): Promise<void> {
  const ending = endingOf(batch);
  const final = FINAL[ending];
  const file = {
    ownerKeyId: batch.ownerKeyId,
    purpose: 'batch_output' as const,
    expiresAt: nowSeconds(deps) + deps.limits.outputRetentionSeconds,
  };
  const opened: string[] = [];
  const hooks = {
    beforeOpen: () => lease.renew(),
    afterOpen: (fileId: string) => recordAttemptFiles(deps, batch.id, lease, opened.concat(fileId)).then(() => void opened.push(fileId)),
  };
  const output = new JsonlFileWriter(deps.files, { ...file, filename: `${batch.id}_output.jsonl` }, hooks);
  const errors = new JsonlFileWriter(deps.files, { ...file, filename: `${batch.id}_error.jsonl` }, hooks);
  try {
    for await (const { line, request, result } of byLine(deps.store.readRequests(batch.id), deps.store.readResults(batch.id))) {
      if (result) await (result.outcome === 'completed' ? output : errors).writeLine(result.jsonl);
      else if (request) {
        await errors.writeLine(failedLine(line, request.customId, { code: final.unfinished, message: UNFINISHED_MESSAGE[ending] }).jsonl);
      }
    }
    const outputFile = await output.close();
    if (outputFile) written.closed.push((written.outputFile = outputFile));
    const errorFile = await errors.close();
    if (errorFile) written.closed.push((written.errorFile = errorFile));
    written.completed = output.lines;
    written.failed = errors.lines;
  } catch (error) {
    await Promise.allSettled([output.abort(), errors.abort()]);
    throw error;
  }
}

/**
 * The end transition, conditional on the batch's status and on this finalizer's lease: the files take over what the
 * lines held, and only the run whose update won drops the batch's work (no other finalizer is reading it then).
 */
async function endWith(
  deps: BatchEngineDeps,
  batch: BatchRecord,
  lease: FinalizeLease,
  written: WrittenFiles,
): Promise<BatchRecord | undefined> {
  const ending = endingOf(batch);
  const final = FINAL[ending];
  const { outputFile, errorFile, completed, failed } = written;
  // The files take over the quota the lines held, before the batch is shown ended with them.
  await transferToFiles(deps.quota, batch, [outputFile, errorFile]);
  let done = await updateBatch(
    deps,
    batch.id,
    [batch.status],
    {
      status: final.status,
      [final.at]: nowSeconds(deps),
      ...(outputFile ? { outputFileId: outputFile.id } : {}),
      ...(errorFile ? { errorFileId: errorFile.id } : {}),
      finalCounts: { total: completed + failed, completed, failed },
      // The files this run recorded are the ones the batch now names.
      attemptFileIds: [],
      ...(ending === 'quota_exceeded' ? { errors: [QUOTA_EXCEEDED] } : {}),
    },
    lease.owner,
  );
  if (!done) {
    // The condition also fails on our own write when its answer was lost and the SDK retried it: the batch then names
    // these files, and they are its output.
    const current = await deps.store.get(batch.id);
    if (current && namesAny(current, written.closed)) {
      done = current;
      await releaseRunningBatch(deps.quota, current);
    }
  }
  if (!done) {
    await discard(deps, batch, written.closed);
    logger.info('batch end taken by another finalizer; this one discarded its files', { batchId: batch.id });
    return undefined;
  }
  // A redelivered task may have charged a line again between the transfer and the end (keepResult gives back only what
  // it charges after the end): the batch's line holds go once more before the work is dropped.
  await releaseLineHolds(deps.quota, batch);
  await deps.store.dropWork(batch.id);
  recordBatchEnded(final.status, completed, failed);
  logger.info('batch finalized', { batchId: batch.id, status: final.status, completed, failed });
  // The end's own release (updateBatch) only logs a failure; this one throws, so the task is delivered again and its
  // first step gives the hold back (finalizeBatch on an ended batch), instead of the key losing a running batch for a day.
  await releaseRunningBatch(deps.quota, done);
  return done;
}

const endingOf = (batch: BatchRecord): BatchEnding => batch.ending ?? (batch.status === 'cancelling' ? 'cancelled' : 'completed');

const namesAny = (batch: BatchRecord, files: readonly FileRecord[]): boolean =>
  files.some((f) => f.id === batch.outputFileId || f.id === batch.errorFileId);

/** After a failure: the run's closed files go, unless the batch names them (a lost answer may hide an end that happened). */
async function discardUnnamed(deps: BatchEngineDeps, batch: BatchRecord, closed: readonly FileRecord[]): Promise<void> {
  if (closed.length === 0) return;
  const current = await deps.store.get(batch.id).then(
    (b) => ({ b }),
    () => undefined,
  );
  if (!current || (current.b && namesAny(current.b, closed))) return;
  await discard(deps, batch, closed).catch((cleanup: unknown) =>
    logger.warn('batch output files not discarded', { batchId: batch.id, error: cleanup as Error }),
  );
}

/** Files a finalizer wrote that did not become the batch's: deleted, their quota holds given back. */
async function discard(deps: BatchEngineDeps, batch: BatchRecord, files: readonly FileRecord[]): Promise<void> {
  await deleteBatchFiles(
    deps,
    batch,
    files.map((f) => f.id),
  );
}
