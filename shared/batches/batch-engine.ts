import { randomUUID } from 'node:crypto';
import { RerankError } from '../core/rerank-error.js';
import { logger } from '../observability/logger.js';
import { BatchChunkWorker } from './batch-chunk-worker.js';
import type { BatchEngineDeps } from './batch-engine-deps.js';
import { nowSeconds } from './batch-engine-deps.js';
import { finalizeWithRetries } from './batch-finalizer.js';
import type { BatchRecord, BatchRequestCounts, BatchTask } from './batch-model.js';
import { ENDING_STATUSES, isTerminal } from './batch-model.js';
import { BatchPlanner } from './batch-planner.js';
import { BatchExistsError, type BatchPage } from './batch-store.js';
import { releaseLineHolds, releaseRunningBatch, takeRunningBatch } from './batch-quota.js';
import { updateBatch } from './update-batch.js';
import { claimEnd } from './claim-end.js';
import { batchProgress, type BatchProgress } from './batch-progress.js';
import { createBatchRequestHash, type CreateBatchInput } from './create-batch-input.js';
import { idempotentBatchId, replayOf } from '../engine/idempotency-key.js';
import { acceptWork } from '../engine/accept-work.js';
import { newBatchRecord, type OwnBounds } from './new-batch-record.js';

export interface BatchView {
  readonly batch: BatchRecord;
  readonly counts: BatchRequestCounts;
  /** Work done inside lines too (a GET of one batch): the `progress` extension beside `request_counts`. */
  readonly progress?: BatchProgress;
}

/**
 * The batch engine: create answers at once (record + one plan task); the planner, chunk workers and finalizer
 * run from the task queue. Cancel and completion_window expiry keep what finished. Knows ports only.
 */
export class BatchEngine {
  readonly #deps: BatchEngineDeps;
  readonly #planner: BatchPlanner;
  readonly #worker: BatchChunkWorker;

  constructor(deps: BatchEngineDeps) {
    this.#deps = deps;
    this.#planner = new BatchPlanner(deps);
    this.#worker = new BatchChunkWorker(deps, (batchId) => this.#maybeComplete(batchId));
  }

  /** Records the batch as `validating` and queues its planning (the engine's one accept path, acceptWork, as a job's); the input is read after this answers. */
  async create(ownerKeyId: string, input: CreateBatchInput, idempotencyKey?: string, owner: OwnBounds = {}): Promise<BatchView> {
    const { store } = this.#deps;
    const requestHash = createBatchRequestHash(input);
    const id = idempotencyKey === undefined ? `batch_${randomUUID().replace(/-/g, '')}` : idempotentBatchId(ownerKeyId, idempotencyKey);
    const created = (batch: BatchRecord): BatchView => ({ batch, counts: { total: 0, completed: 0, failed: 0 } });
    let batch: BatchRecord | undefined;
    const admitted = (): BatchRecord => batch as BatchRecord;
    return acceptWork<BatchView>({
      replay: async () => (idempotencyKey === undefined ? undefined : this.#replay(id, ownerKeyId, requestHash)),
      admit: async () => {
        const hash = idempotencyKey === undefined ? undefined : requestHash;
        batch = await newBatchRecord(this.#deps, { id, ownerKeyId, input, requestHash: hash, owner });
      },
      hold: () => takeRunningBatch(this.#deps.quota, admitted()),
      release: () => releaseRunningBatch(this.#deps.quota, admitted()),
      store: () => store.create(admitted()),
      stored: async (error) => {
        if (!(error instanceof BatchExistsError)) throw error;
        // A random id taken is our own write, applied but its answer lost (the SDK's retry found it): go on and queue it.
        if (idempotencyKey === undefined) return 'ours';
        // A racing retry with the same Idempotency-Key created it first - or our own write's answer was lost, and then
        // nobody has queued its planning yet. A second plan task for a batch not yet planned is harmless (plan tasks
        // are delivered at least once anyway); without one it would wait in `validating` for its expiry.
        const first = await this.#replay(id, ownerKeyId, requestHash);
        if (!first) throw error;
        return first;
      },
      enqueue: () => this.#deps.queue.send([{ kind: 'plan', batchId: id }], { tenant: ownerKeyId }),
      unqueued: async (error) => {
        // A batch whose plan task could not be queued would wait for its expiry: it fails now, saying so (a retry with
        // the same Idempotency-Key gets this failed batch; a new create starts again).
        logger.error('batch plan task could not be queued', { batchId: id, error: error as Error });
        const failed = await updateBatch(this.#deps, id, ['validating'], {
          status: 'failed',
          failedAt: nowSeconds(this.#deps),
          planned: true,
          errors: [{ code: 'enqueue_failed', message: 'the batch could not be queued; create it again' }],
        });
        return created(failed ?? admitted());
      },
      accepted: async () => {
        logger.info('batch created', { batchId: id, endpoint: input.endpoint });
        return created(admitted());
      },
    });
  }

  /**
   * The key's first create, answered again. One whose planning has not started is queued again: its first create may
   * have been applied with its answer lost before the plan task was sent, and without one it would wait in `validating`
   * for its expiry. A second plan task for a batch not yet planned is harmless (plan tasks arrive at least once anyway).
   */
  async #replay(id: string, ownerKeyId: string, requestHash: string): Promise<BatchView | undefined> {
    const first = replayOf(await this.#deps.store.get(id), ownerKeyId, requestHash, 'batch');
    if (first?.status === 'validating' && !first.planned && !first.planCheckpoint) {
      await this.#deps.queue.send([{ kind: 'plan', batchId: id }], { tenant: ownerKeyId });
    }
    return first && this.#view(first);
  }

  /** The batch as its owner sees it; another key's batch is indistinguishable from none. */
  async find(batchId: string, ownerKeyId: string): Promise<BatchView | undefined> {
    const batch = await this.#deps.store.get(batchId);
    if (!batch || batch.ownerKeyId !== ownerKeyId) return undefined;
    const view = await this.#view(batch);
    return { ...view, progress: await batchProgress(this.#deps, batch, view.counts) };
  }

  async list(
    ownerKeyId: string,
    page: { readonly after?: string; readonly limit: number },
  ): Promise<{ views: BatchView[]; hasMore: boolean }> {
    const found: BatchPage = await this.#deps.store.list(ownerKeyId, page);
    return { views: await Promise.all(found.batches.map((b) => this.#view(b))), hasMore: found.hasMore };
  }

  async #view(batch: BatchRecord): Promise<BatchView> {
    if (batch.finalCounts) return { batch, counts: batch.finalCounts };
    const done = await this.#deps.store.countResults(batch.id);
    return { batch, counts: { total: Math.max(batch.total, done.completed + done.failed), ...done } };
  }

  /** `cancelling` now; the finalizer keeps what finished and writes the rest as `batch_cancelled`. */
  async cancel(batchId: string, ownerKeyId: string): Promise<BatchView> {
    const found = await this.find(batchId, ownerKeyId);
    if (!found) throw new RerankError('not_found', `no batch '${batchId}'`);
    const { batch } = found;
    if (batch.status === 'validating' || batch.status === 'in_progress') {
      const now = nowSeconds(this.#deps);
      const cancelling = await claimEnd(this.#deps, batchId, [batch.status], {
        status: 'cancelling',
        cancellingAt: now,
        ending: 'cancelled',
      });
      // While validating, the planner notices and hands over to the finalizer itself.
      if (cancelling && batch.status === 'in_progress') await this.#deps.queue.send([{ kind: 'finalize', batchId }]);
      if (!cancelling) return this.cancel(batchId, ownerKeyId);
    }
    return (await this.find(batchId, ownerKeyId)) as BatchView;
  }

  /** completion_window expiry, driven by the engine's clock: batches past `expires_at` end `expired`. */
  async expireDue(): Promise<number> {
    const now = nowSeconds(this.#deps);
    let expired = 0;
    for (const batch of await this.#deps.store.listActive()) {
      if (await this.#resendStuckFinalize(batch, now)) continue;
      if (batch.expiresAt > now || (batch.status !== 'validating' && batch.status !== 'in_progress')) continue;
      const claimed = await claimEnd(this.#deps, batch.id, [batch.status], {
        status: 'finalizing',
        finalizingAt: now,
        ending: 'expired',
      });
      if (!claimed) continue;
      expired++;
      if (batch.status === 'in_progress') await this.#deps.queue.send([{ kind: 'finalize', batchId: batch.id }]);
    }
    return expired;
  }

  /**
   * A batch claimed for its end whose finalize task never ran (its send failed, or the answer to the claim was lost)
   * would stay `finalizing` / `cancelling` for ever, holding its running batch. Only the transition that claims an end
   * sends its finalizer, so the sweep is what recovers a lost send: once the end has been claimed a lease's length ago
   * and no finalizer holds a live lease, the task is sent again. True when the batch is being ended (nothing else to do).
   */
  async #resendStuckFinalize(batch: BatchRecord, now: number): Promise<boolean> {
    const since = batch.status === 'finalizing' ? batch.finalizingAt : batch.status === 'cancelling' ? batch.cancellingAt : undefined;
    // Cancelled while validating: the planner hands over to the finalizer itself when it notices.
    if (since === undefined || (batch.status === 'cancelling' && !batch.planned)) return false;
    const leaseSeconds = this.#deps.limits.finalizeLeaseSeconds;
    const lease = batch.finalizeLease;
    const stuck = lease === undefined ? now - since >= leaseSeconds : lease.until <= now;
    if (stuck) {
      logger.warn('batch end not reached: finalize sent again', { batchId: batch.id, status: batch.status, seconds: now - since });
      await this.#deps.queue.send([{ kind: 'finalize', batchId: batch.id }]);
    }
    return true;
  }

  /**
   * Runs one task (the in-process queue and, on AWS, the task functions call this). `messageId`: the queue message's id,
   * which a finalizer leases its batch under (see FinalizeLease).
   */
  async handle(task: BatchTask, messageId?: string): Promise<void> {
    switch (task.kind) {
      case 'plan':
        return this.#plan(task.batchId);
      case 'chunk':
        return this.#worker.score(task);
      case 'finalize':
        await finalizeWithRetries(this.#deps, task.batchId, messageId);
        return;
    }
  }

  /** A task that failed every delivery: its request fails (or, for planning, the batch); accepted work always ends. */
  async taskDeadLettered(task: BatchTask, reason: string): Promise<void> {
    logger.error('batch task dead-lettered', { batchId: task.batchId, kind: task.kind, reason });
    if (task.kind === 'chunk') {
      // The engine's one recovery for each line of the task: finished if its chunk was recorded after all, else failed
      // (one already finished keeps its result).
      await this.#worker.lane.deadLettered(task, reason);
      return this.#maybeComplete(task.batchId);
    }
    if (task.kind === 'plan') {
      await updateBatch(this.#deps, task.batchId, ['validating'], {
        status: 'failed',
        failedAt: nowSeconds(this.#deps),
        planned: true,
        errors: [{ code: 'server_error', message: 'the input file could not be processed; create the batch again' }],
      });
    }
    if (task.kind === 'finalize') {
      // The output and error files could not be written on any delivery: the batch ends failed instead of staying
      // `finalizing` for ever (its scored lines expire with its records).
      const failed = await updateBatch(this.#deps, task.batchId, ['finalizing', 'cancelling'], {
        status: 'failed',
        failedAt: nowSeconds(this.#deps),
        errors: [{ code: 'server_error', message: 'the output and error files could not be written; create the batch again' }],
      });
      // No file holds its kept lines now: what they held on the key's quota is given back.
      if (failed) await releaseLineHolds(this.#deps.quota, failed);
    }
    // updateBatch only logs a failed release of the running batch; this one throws, so the dead-lettered message is
    // delivered again and that delivery (its batch ended already) gives the hold back, instead of the key losing a
    // running batch until the hold expires (the batch's window + 1 day).
    const ended = await this.#deps.store.get(task.batchId);
    if (!ended || !isTerminal(ended.status)) return;
    await releaseRunningBatch(this.#deps.quota, ended);
    // Files a failed finalize attempt left are deleted by the batch worker (the dead-letter function only reads files):
    // a finalize task for the ended batch settles it there (settleEndedBatch).
    if ((ended.attemptFileIds ?? []).length > 0) await this.#deps.queue.send([{ kind: 'finalize', batchId: ended.id }]);
  }

  async #plan(batchId: string): Promise<void> {
    const batch = await this.#deps.store.get(batchId);
    if (!batch) return;
    if (batch.status === 'validating' && !batch.planned) {
      const outcome = await this.#planner.plan(batch);
      if (outcome === 'planned') return this.#maybeComplete(batchId);
      // The next plan task goes on from the checkpoint (and notices a cancel or expiry itself).
      if (outcome === 'continued') return;
    }
    // Cancelled, expired or past the quota while validating: the transition did not send the finalizer (the planner might
    // still be recording lines); the planner stopped, and hands over. A batch planned already was handed over by whoever
    // ended it.
    const now = await this.#deps.store.get(batchId);
    if (now && ENDING_STATUSES.includes(now.status) && !now.planned) await this.#deps.queue.send([{ kind: 'finalize', batchId }]);
  }

  /**
   * The last request's result is in: claim the finalizer (one winner, whatever races); only the winner sends it. A batch
   * whose end is claimed already (completion, quota, expiry, cancel) has its finalizer: a task that ends after the claim
   * sends none (a lost send is the sweep's to recover, #resendStuckFinalize).
   */
  async #maybeComplete(batchId: string): Promise<void> {
    const batch = await this.#deps.store.get(batchId);
    if (!batch || batch.status !== 'in_progress' || !batch.planned) return;
    const done = await this.#deps.store.countResults(batchId);
    if (done.completed + done.failed < batch.total) return;
    const now = nowSeconds(this.#deps);
    const claimed = await claimEnd(this.#deps, batchId, ['in_progress'], {
      status: 'finalizing',
      finalizingAt: now,
      ending: 'completed',
    });
    if (claimed) await this.#deps.queue.send([{ kind: 'finalize', batchId }]);
  }
}
