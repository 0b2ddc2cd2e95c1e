import type { FileRecord } from '../files/file-store.js';
import { logger } from '../observability/logger.js';
import { recordBatchEnded } from '../observability/record-batch-metrics.js';
import type { BatchEngineDeps } from './batch-engine-deps.js';
import { nowSeconds } from './batch-engine-deps.js';
import type { BatchEnding, BatchRecord, BatchRequestPlan, BatchRequestResult, BatchStatus, BatchTimestampField } from './batch-model.js';
import { failedLine } from './batch-output-lines.js';
import { isTerminal } from './batch-model.js';
import { JsonlFileWriter } from './batch-file-writer.js';
import { releaseFiles, releaseLineHolds, releaseRunningBatch, transferToFiles } from './batch-quota.js';
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

/**
 * The batch's end: streams every finished line to output.jsonl or errors.jsonl in the FileStore, writes the
 * unfinished ones (cancel, expiry) as `batch_cancelled` / `batch_expired` errors, and records the counts the
 * files hold. Run only by whoever won the transition that claimed it (`ending`); safe to run again after a crash.
 */
export async function finalizeBatch(deps: BatchEngineDeps, batchId: string): Promise<BatchRecord | undefined> {
  const batch = await deps.store.get(batchId);
  // An ended batch's running hold is given back again (idempotent): the release after its end may have been lost.
  if (batch && isTerminal(batch.status)) await releaseRunningBatch(deps.quota, batch);
  if (!batch || (batch.status !== 'finalizing' && batch.status !== 'cancelling')) return batch;
  const ending: BatchEnding = batch.ending ?? (batch.status === 'cancelling' ? 'cancelled' : 'completed');
  const final = FINAL[ending];
  const file = {
    ownerKeyId: batch.ownerKeyId,
    purpose: 'batch_output' as const,
    expiresAt: nowSeconds(deps) + deps.limits.outputRetentionSeconds,
  };
  const output = new JsonlFileWriter(deps.files, { ...file, filename: `${batch.id}_output.jsonl` });
  const errors = new JsonlFileWriter(deps.files, { ...file, filename: `${batch.id}_error.jsonl` });
  // Files this run closed, and whether its update made them the batch's: a run that fails or loses after closing them
  // deletes them (and their quota holds), or every retry and every duplicate would leave a pair behind.
  const closed: FileRecord[] = [];
  let ended = false;
  try {
    for await (const { line, request, result } of byLine(deps.store.readRequests(batch.id), deps.store.readResults(batch.id))) {
      if (result) await (result.outcome === 'completed' ? output : errors).writeLine(result.jsonl);
      else if (request) {
        await errors.writeLine(failedLine(line, request.customId, { code: final.unfinished, message: UNFINISHED_MESSAGE[ending] }).jsonl);
      }
    }
    const outputFile = await output.close();
    if (outputFile) closed.push(outputFile);
    const errorFile = await errors.close();
    if (errorFile) closed.push(errorFile);
    // The files take over the quota the lines held, before the batch is shown ended with them.
    await transferToFiles(deps.quota, batch, [outputFile, errorFile]);
    const now = nowSeconds(deps);
    let done = await updateBatch(deps, batch.id, [batch.status], {
      status: final.status,
      [final.at]: now,
      ...(outputFile ? { outputFileId: outputFile.id } : {}),
      ...(errorFile ? { errorFileId: errorFile.id } : {}),
      finalCounts: { total: output.lines + errors.lines, completed: output.lines, failed: errors.lines },
      ...(ending === 'quota_exceeded' ? { errors: [QUOTA_EXCEEDED] } : {}),
    });
    if (!done) {
      // The condition also fails on our own write when its answer was lost and the SDK retried it: the batch then names
      // these files, and they are its output.
      const current = await deps.store.get(batch.id);
      if (current && namesAny(current, closed)) {
        done = current;
        await releaseRunningBatch(deps.quota, current);
      }
    }
    ended = done !== undefined;
    if (!done) await discard(deps, batch, closed);
    // Only the finalizer whose update won drops the work; a late duplicate finds the batch ended and returns early.
    if (done) {
      // A redelivered task may have charged a line again between the transfer and the end (keepResult gives back only
      // what it charges after the end): the batch's line holds go once more before the work is dropped.
      await releaseLineHolds(deps.quota, batch);
      await deps.store.dropWork(batch.id);
      recordBatchEnded(final.status, output.lines, errors.lines);
    }
    logger.info('batch finalized', { batchId, status: final.status, completed: output.lines, failed: errors.lines });
    return done;
  } catch (error) {
    await Promise.allSettled([output.abort(), errors.abort()]);
    if (!ended && closed.length > 0) {
      // Discarded only when the batch is known not to name them: a lost answer may hide an end that did happen.
      const current = await deps.store.get(batch.id).then(
        (b) => ({ b }),
        () => undefined,
      );
      if (current && !(current.b && namesAny(current.b, closed))) {
        await discard(deps, batch, closed).catch((cleanup: unknown) =>
          logger.warn('batch output files not discarded', { batchId, error: cleanup as Error }),
        );
      }
    }
    throw error;
  }
}

const namesAny = (batch: BatchRecord, files: readonly FileRecord[]): boolean =>
  files.some((f) => f.id === batch.outputFileId || f.id === batch.errorFileId);

/** Files a finalizer wrote that did not become the batch's: deleted, their quota holds given back. */
async function discard(deps: BatchEngineDeps, batch: BatchRecord, files: readonly FileRecord[]): Promise<void> {
  for (const file of files) await deps.files.delete(file.id);
  await releaseFiles(deps.quota, batch, files);
}
