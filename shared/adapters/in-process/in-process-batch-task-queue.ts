import type { BatchTask } from '../../batches/batch-model.js';
import { logger } from '../../observability/logger.js';
import type { BatchTaskQueue } from '../../batches/batch-task-queue.js';

export interface InProcessBatchQueueOptions {
  /** Tasks run at once (like a function's maximum concurrency). */
  readonly concurrency: number;
  /** Deliveries before a task goes to the dead-letter handler. */
  readonly maxAttempts: number;
  readonly retryDelayMs: number;
  /**
   * Chunk tasks held at most; past it `send` waits for runners to take some (the planner of a huge batch slows
   * down instead of filling memory; SQS holds its messages itself). Default 100,000.
   */
  readonly maxQueuedChunks?: number;
}

export interface BatchTaskConsumer {
  handle(task: BatchTask): Promise<void>;
  taskDeadLettered(task: BatchTask, reason: string): Promise<void>;
}

interface Delivery {
  readonly task: BatchTask;
  attempts: number;
}

/**
 * The batch engine's queue for `npm start`: at-least-once delivery with retries and a dead-letter hand-off,
 * as SQS + Lambda give on AWS. Plan and finalize tasks start at once, so a big batch's chunks never starve a
 * small batch's planning or another batch's end.
 */
export class InProcessBatchTaskQueue implements BatchTaskQueue {
  readonly #options: InProcessBatchQueueOptions;
  readonly #urgent: Delivery[] = [];
  readonly #chunks: Delivery[] = [];
  #chunkHead = 0;
  #running = 0;
  /** Chunk tasks running: at most `concurrency`. Plan and finalize tasks (one per batch) run at once beside them, so a planner waiting for queue space never holds a chunk runner. */
  #runningChunks = 0;
  #delayed = 0;
  #consumer: BatchTaskConsumer | undefined;
  #spaceWaiters: (() => void)[] = [];
  #idleWaiters: (() => void)[] = [];

  constructor(options: InProcessBatchQueueOptions) {
    this.#options = options;
  }

  attach(consumer: BatchTaskConsumer): void {
    this.#consumer = consumer;
    this.#pump();
  }

  async send(tasks: readonly BatchTask[]): Promise<void> {
    const max = this.#options.maxQueuedChunks ?? 100_000;
    for (const task of tasks) {
      if (task.kind === 'chunk') {
        while (this.#chunks.length - this.#chunkHead >= max) await new Promise<void>((resolve) => this.#spaceWaiters.push(resolve));
        this.#chunks.push({ task, attempts: 0 });
      } else this.#urgent.push({ task, attempts: 0 });
      this.#pump();
    }
  }

  /** Resolves once nothing is queued, waiting for a retry or running. */
  idle(): Promise<void> {
    if (this.#isIdle()) return Promise.resolve();
    return new Promise((resolve) => this.#idleWaiters.push(resolve));
  }

  #isIdle(): boolean {
    return this.#urgent.length === 0 && this.#chunkHead >= this.#chunks.length && this.#running === 0 && this.#delayed === 0;
  }

  #next(): Delivery | undefined {
    const urgent = this.#urgent.shift();
    if (urgent) return urgent;
    if (this.#chunkHead >= this.#chunks.length) return undefined;
    const next = this.#chunks[this.#chunkHead++];
    this.#spaceWaiters.shift()?.();
    // Drop the consumed head now and then: an array shift per task would be quadratic for a million chunks.
    if (this.#chunkHead > 4096 && this.#chunkHead * 2 > this.#chunks.length) {
      this.#chunks.splice(0, this.#chunkHead);
      this.#chunkHead = 0;
    }
    return next;
  }

  #pump(): void {
    const consumer = this.#consumer;
    if (consumer) {
      for (;;) {
        const delivery = this.#urgent.length > 0 || this.#runningChunks >= this.#options.concurrency ? this.#urgent.shift() : this.#next();
        if (!delivery) break;
        this.#running++;
        if (delivery.task.kind === 'chunk') this.#runningChunks++;
        // setImmediate: never inside the sender's call stack, as with a real queue.
        setImmediate(() => void this.#deliver(consumer, delivery));
      }
    }
    if (this.#isIdle()) for (const resolve of this.#idleWaiters.splice(0)) resolve();
  }

  /**
   * Hands a task that failed every delivery to the dead-letter handler, retrying the handler itself as SQS retries a
   * dead-letter queue's messages: a handler that failed once (a store call) would otherwise leave its line or batch
   * unfinished for ever.
   */
  async #deadLetter(consumer: BatchTaskConsumer, task: BatchTask, reason: string): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        await consumer.taskDeadLettered(task, reason);
        return;
      } catch (error) {
        if (attempt >= this.#options.maxAttempts) {
          logger.error('dead-lettered batch task could not be handled', { batchId: task.batchId, kind: task.kind, error: error as Error });
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, this.#options.retryDelayMs));
      }
    }
  }

  async #deliver(consumer: BatchTaskConsumer, delivery: Delivery): Promise<void> {
    delivery.attempts++;
    try {
      await consumer.handle(delivery.task);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      if (delivery.attempts >= this.#options.maxAttempts) {
        await this.#deadLetter(consumer, delivery.task, reason);
      } else {
        this.#delayed++;
        setTimeout(() => {
          this.#delayed--;
          (delivery.task.kind === 'chunk' ? this.#chunks : this.#urgent).push(delivery);
          this.#pump();
        }, this.#options.retryDelayMs);
      }
    }
    this.#running--;
    if (delivery.task.kind === 'chunk') this.#runningChunks--;
    this.#pump();
  }
}
