import type { FaultCounts } from './fault-counts.js';

/**
 * How long a chaos poller keeps a received batch invisible, renewed while its handler runs (startSqsPoller's
 * holdSeconds). On AWS the task queues' visibility timeout is 6x the worker's timeout (infra/constructs/chunk-queues.ts),
 * so no message is delivered again while a delivery of it runs; the runs' own visibility timeout stays short so that a
 * lost receive or a dropped delete comes back within seconds. Without the hold, a slow delivery on a loaded machine let
 * the message reach a second consumer, and such extra deliveries spent the receives a crash-free delivery needs: a plan
 * task that crashed on its faulty deliveries was dead-lettered and its batch failed.
 */
export const DELIVERY_HOLD_SECONDS = 10;

export const OVERLAP = 'observed: delivered again while a delivery of it still ran';

/** Counts deliveries of a message that start while another delivery of the same message still runs (should be none). */
export class RunningDeliveries {
  readonly #running = new Map<string, number>();
  readonly #counts: FaultCounts;

  constructor(counts: FaultCounts) {
    this.#counts = counts;
  }

  async track<T>(messageId: string, run: () => Promise<T>): Promise<T> {
    const running = this.#running.get(messageId) ?? 0;
    if (running > 0) this.#counts.add(OVERLAP);
    this.#running.set(messageId, running + 1);
    try {
      return await run();
    } finally {
      const left = (this.#running.get(messageId) ?? 1) - 1;
      if (left === 0) this.#running.delete(messageId);
      else this.#running.set(messageId, left);
    }
  }
}
