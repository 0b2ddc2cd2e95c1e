import { QuotaExceededError } from '../quota/quota-ledger.js';
import type { BatchEngineDeps } from './batch-engine-deps.js';
import { nowSeconds } from './batch-engine-deps.js';
import type { BatchError, BatchRecord } from './batch-model.js';
import { STALE_HOLD_GRACE_SECONDS, queuedPairsHoldId } from './batch-quota.js';
import { claimEnd } from './claim-end.js';

/** The bound that applies to the batch: its key's own, else the service's. */
export const queuedPairsLimit = (batch: Pick<BatchRecord, 'maxQueuedPairs'>, deps: Pick<BatchEngineDeps, 'limits'>): number =>
  batch.maxQueuedPairs ?? deps.limits.maxQueuedPairs;

/**
 * The planner's side of the bound: it adds each planned line's pairs, and `reserve` sets the batch's hold
 * (`queuedPairsHoldId`) to the total before that round's tasks are sent. The amount is a total through a line, never an
 * increment, so a resumed or duplicated planning run that sets it again for the same lines charges nothing twice. A
 * round that does not fit names the first of its lines that passes the bound.
 */
export class QueuedPairs {
  readonly #deps: Pick<BatchEngineDeps, 'quota' | 'limits' | 'nowMs'>;
  readonly #batch: BatchRecord;
  /** Pairs of the lines before this planning run's first line (its checkpoint's). */
  #held: number;
  #total: number;
  /** The round's lines, with the total through each: where a refused round stops. */
  #round: { line: number; total: number }[] = [];

  constructor(deps: Pick<BatchEngineDeps, 'quota' | 'limits' | 'nowMs'>, batch: BatchRecord) {
    this.#deps = deps;
    this.#batch = batch;
    this.#held = batch.planCheckpoint?.queuedPairs ?? 0;
    this.#total = this.#held;
  }

  /** Pairs of every line planned so far (what the next checkpoint records). */
  get total(): number {
    return this.#total;
  }

  add(line: number, pairs: number): void {
    if (pairs <= 0) return;
    this.#total += pairs;
    this.#round.push({ line, total: this.#total });
  }

  /** Sets the hold to the total; undefined when it fits, else the batch error that ends the batch. */
  async reserve(): Promise<BatchError | undefined> {
    if (this.#round.length === 0) return undefined;
    const { ledger } = this.#deps.quota;
    const owner = this.#batch.ownerKeyId;
    const limit = queuedPairsLimit(this.#batch, this.#deps);
    const hold = { id: queuedPairsHoldId(this.#batch.id), amounts: { queued_pairs: this.#total }, expiresAt: this.#expiresAt() };
    for (let attempt = 0; ; attempt += 1) {
      try {
        // The hold grows in place; a first round (or one whose hold was lost) takes it afresh.
        if (!(await ledger.replace(owner, hold.id, hold, { queued_pairs: limit })))
          await ledger.reserve(owner, hold, { queued_pairs: limit });
        this.#held = this.#total;
        this.#round = [];
        return undefined;
      } catch (error) {
        if (!(error instanceof QuotaExceededError)) throw error;
        // A hold its batch never gave back (a lost release) stops counting once it expired; then one more try.
        if (attempt === 0 && (await ledger.releaseExpired(owner, nowSeconds(this.#deps))) > 0) continue;
        return this.#refusal(error, limit);
      }
    }
  }

  /** The first line of the round past the bound, with the key's total it would have made. */
  #refusal(error: QuotaExceededError, limit: number): BatchError {
    // What the key's other batches hold: the ledger's total less this batch's own hold.
    const others = Math.max(0, error.used - this.#held);
    const first = this.#round.find((r) => others + r.total > limit) ?? (this.#round.at(-1) as { line: number; total: number });
    return {
      code: 'token_limit_exceeded',
      line: first.line,
      message:
        `line ${first.line} would bring this key's queued work to ${others + first.total} pairs (documents x query lines ` +
        `over its running batches, ${first.total} of them this batch's), past its bound of ${limit} ` +
        `(RERANK_BATCH_MAX_QUEUED_PAIRS or the key's own): wait for its other batches to end, or split this one`,
    };
  }

  #expiresAt(): number {
    return this.#batch.expiresAt + STALE_HOLD_GRACE_SECONDS;
  }
}

/**
 * Ends a batch whose next line does not fit as a cancel ends it: the lines queued before it keep what finishes until
 * the finalizer runs, the rest are written `batch_failed`, and the batch reads `failed` with the error.
 */
export async function failOverQueuedPairs(
  deps: Pick<BatchEngineDeps, 'store' | 'quota' | 'nowMs'>,
  batch: BatchRecord,
  error: BatchError,
): Promise<void> {
  // Claimed from validating: the planner that stops here hands over to the finalizer (BatchEngine's plan task).
  await claimEnd(deps, batch.id, ['validating'], {
    status: 'finalizing',
    finalizingAt: nowSeconds(deps),
    ending: 'queued_pairs_exceeded',
    errors: [error],
  });
}
