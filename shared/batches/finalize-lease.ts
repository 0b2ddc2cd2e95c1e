import { randomUUID } from 'node:crypto';
import { logger } from '../observability/logger.js';
import type { BatchEngineDeps } from './batch-engine-deps.js';
import { nowSeconds } from './batch-engine-deps.js';
import type { BatchRecord } from './batch-model.js';

/** Another finalizer took the batch's lease while this one was writing: this one stops and leaves the end to it. */
export class FinalizeLeaseLostError extends Error {
  constructor(readonly batchId: string) {
    super(`batch ${batchId}: another finalizer holds the lease`);
    this.name = 'FinalizeLeaseLostError';
  }
}

/**
 * One finalizer's lease on a batch (BatchStore.leaseFinalize): taken before it writes anything, renewed before each file
 * it opens, given back when it fails. `owner` is the finalize task's queue message id when there is one: a redelivery of
 * the same message (its first run crashed or timed out) takes its own lease again at once, while a second message for
 * the same batch waits for the lease to end.
 */
export class FinalizeLease {
  readonly #deps: Pick<BatchEngineDeps, 'store' | 'limits' | 'nowMs'>;
  readonly #batchId: string;
  readonly owner: string;

  constructor(deps: Pick<BatchEngineDeps, 'store' | 'limits' | 'nowMs'>, batchId: string, owner: string = randomUUID()) {
    this.#deps = deps;
    this.#batchId = batchId;
    this.owner = owner;
  }

  /**
   * Takes or renews the lease: the batch as the lease's write left it, or undefined when another finalizer's lease is
   * live (or the batch is no longer ending).
   */
  async take(): Promise<BatchRecord | undefined> {
    const now = nowSeconds(this.#deps);
    const until = now + this.#deps.limits.finalizeLeaseSeconds;
    return this.#deps.store.leaseFinalize(this.#batchId, { owner: this.owner, until }, now);
  }

  /** Renews the lease before a file is opened; throws FinalizeLeaseLostError when another finalizer has it now. */
  async renew(): Promise<void> {
    if (!(await this.take())) throw new FinalizeLeaseLostError(this.#batchId);
  }

  /** Ends the lease now (a failed run), so the redelivery or the sweep's finalizer need not wait for it to run out. */
  async giveUp(): Promise<void> {
    const now = nowSeconds(this.#deps);
    await this.#deps.store
      .leaseFinalize(this.#batchId, { owner: this.owner, until: now }, now)
      .catch((error: unknown) =>
        logger.warn('finalize lease not given back; it runs out', { batchId: this.#batchId, error: error as Error }),
      );
  }
}
