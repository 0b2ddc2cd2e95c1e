import { DEFAULT_BATCH_LIMITS } from '../../../shared/batches/batch-limits.js';
import { isTerminal, type BatchRecord } from '../../../shared/batches/batch-model.js';
import type { Scorer } from '../../../shared/core/scorer.js';
import { HELD, type BatchEndingCase } from './chaos-batch-lines.js';
import type { FaultCounts } from './fault-counts.js';

/** What a batch of each case ends as: its status, the code on its key's errors, and the code of its lines not run. */
export const ENDING_EXPECTED: Readonly<Record<BatchEndingCase, { status: string; batchError?: string; unfinished?: string }>> = {
  completed: { status: 'completed' },
  quota: { status: 'failed', batchError: 'quota_exceeded', unfinished: 'batch_failed' },
  expiry: { status: 'expired', unfinished: 'batch_expired' },
};

/**
 * The quota case's stored-bytes limit: half of the smallest batch's fault-free output (output and error files), so no
 * batch can keep all its lines and each ends by its quota, whichever of them the key's bytes went to first.
 */
export const quotaCaseLimit = (cleanBatchBytes: readonly number[]): number => Math.floor(Math.min(...cleanBatchBytes) / 2);

/** How long the finalizers may read before the held lines go on (ExpiryDriver). */
const FINALIZER_HEAD_START_MS = 1_000;

/** A scorer whose held lines (HELD queries) wait while the gate is closed; it notes which batches have one waiting. */
export class HeldGate {
  readonly #held = new Set<string>();
  #open: (() => void) | undefined;
  readonly #opened: Promise<void>;

  constructor() {
    this.#opened = new Promise<void>((resolve) => (this.#open = resolve));
  }

  /** Batches with a held line waiting at the gate (every delivery of it waits, a second one too). */
  get heldBatches(): number {
    return this.#held.size;
  }

  open(): void {
    this.#open?.();
    this.#open = undefined;
  }

  get isOpen(): boolean {
    return this.#open === undefined;
  }

  wrap(inner: Scorer): Scorer {
    return {
      ...inner,
      id: inner.id,
      score: async (query, documents, options) => {
        if (query.startsWith(HELD) && !this.isOpen) {
          this.#held.add(query);
          await this.#opened;
        }
        return inner.score(query, documents, options);
      },
    };
  }
}

/**
 * The expiry case's schedule, stepped at each progress poll: once every batch is planned and `in_progress` with its held
 * line waiting, the engine's clock moves past the completion window (the sweep then claims each batch's end); once every
 * batch's end is claimed, the gate opens, so the held lines end after the claim - the tasks that must not finalize again.
 * It opens when every batch has ended, or a head start after the claims: a finalizer that read the results before a held
 * line ended writes it as `batch_expired`, which is what shows the ending ran; without the head start a finalizer whose
 * first try failed read them only after the held lines had ended, and no line showed it.
 */
export class ExpiryDriver {
  readonly clock = { offsetMs: 0 };
  readonly gate = new HeldGate();
  #phase: 'holding' | 'expiring' | 'claimed' | 'released' = 'holding';
  #claimedAt = 0;
  readonly #counts: FaultCounts;

  constructor(counts: FaultCounts) {
    this.#counts = counts;
  }

  nowMs = (): number => Date.now() + this.clock.offsetMs;

  step(batches: readonly (BatchRecord | undefined)[]): void {
    if (this.#phase === 'holding') {
      const running = batches.every((b) => b?.status === 'in_progress' && b.planned);
      if (!running || this.gate.heldBatches < batches.length) return;
      this.clock.offsetMs = (DEFAULT_BATCH_LIMITS.completionWindowSeconds + 1) * 1000;
      this.#counts.add('expiry: clock moved past the completion window, a line of each batch in flight');
      this.#phase = 'expiring';
      return;
    }
    if (this.#phase === 'expiring' && batches.every((b) => b !== undefined && b.status !== 'validating' && b.status !== 'in_progress')) {
      this.#claimedAt = Date.now();
      this.#phase = 'claimed';
    }
    const ended = batches.every((b) => b !== undefined && isTerminal(b.status));
    if (this.#phase === 'claimed' && (ended || Date.now() - this.#claimedAt >= FINALIZER_HEAD_START_MS)) {
      this.gate.open();
      this.#counts.add('expiry: held lines let go after every batch was claimed for its end');
      this.#phase = 'released';
    }
  }

  /** Opens the gate whatever the phase (the run is stopping). */
  stop(): void {
    this.gate.open();
  }
}
