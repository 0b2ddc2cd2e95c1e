import { randomUUID } from 'node:crypto';
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { encodeChunkTask, type ChunkQueue } from '../../jobs/chunk-queue.js';
import { toSqsRecord } from '../sqs/to-sqs-record.js';
import type { ChunkTask } from '../../jobs/job-model.js';

/** A Lambda SQS handler: what the event source mapping calls, in production and here. */
export type SqsBatchHandler = (event: SQSEvent) => Promise<SQSBatchResponse | void>;

export interface InProcessQueueOptions {
  /** Concurrent "worker invocations", like the event source mapping's maximum concurrency. */
  readonly concurrency: number;
  /** Records per invocation. */
  readonly batchSize: number;
  /** Deliveries before a message goes to the dead-letter handler, like the queue's redrive policy. */
  readonly maxReceiveCount: number;
  /** Stand-in for the visibility timeout: how long a failed message waits before redelivery. */
  readonly retryDelayMs: number;
}

interface Message {
  readonly messageId: string;
  readonly body: string;
  receiveCount: number;
}

const QUEUE_ARN = 'arn:aws:sqs:local:000000000000:rerank-chunks-in-process';

/** The record shape the Lambda SQS event source delivers, built by the same function the SQS poller uses. */
const toRecord = (m: Message): SQSRecord =>
  toSqsRecord(
    { MessageId: m.messageId, ReceiptHandle: `${m.messageId}:${m.receiveCount}`, Body: m.body, Attributes: { ApproximateReceiveCount: String(m.receiveCount) } },
    QUEUE_ARN,
  );

/**
 * The embedded queue for `npm start`: same delivery contract as SQS + Lambda (batches, at-least-once,
 * partial batch failures, redelivery, dead-letter after max receives) without any AWS.
 */
export class InProcessChunkQueue implements ChunkQueue {
  readonly #options: InProcessQueueOptions;
  readonly #ready: Message[] = [];
  #inFlight = 0;
  #delayed = 0;
  /** Dead-lettered messages wait here until a dead-letter consumer is attached, as in a real DLQ. */
  readonly #dead: Message[] = [];
  #worker: SqsBatchHandler | undefined;
  #deadLetter: SqsBatchHandler | undefined;
  #idleWaiters: (() => void)[] = [];

  constructor(options: InProcessQueueOptions) {
    this.#options = options;
  }

  /** Wires the consumers (the same handlers Lambda runs). Messages sent before this wait. */
  attach(worker: SqsBatchHandler, deadLetter: SqsBatchHandler): void {
    this.consume(worker);
    this.consumeDeadLetters(deadLetter);
  }

  /** Like an event source mapping on the queue; `stop` pauses deliveries (in-flight ones finish). */
  consume(worker: SqsBatchHandler): { stop(): Promise<void> } {
    this.#worker = worker;
    this.#pump();
    return {
      stop: async () => {
        if (this.#worker === worker) this.#worker = undefined;
      },
    };
  }

  /** Like an event source mapping on the dead-letter queue. */
  consumeDeadLetters(deadLetter: SqsBatchHandler): { stop(): Promise<void> } {
    this.#deadLetter = deadLetter;
    const waiting = this.#dead.splice(0);
    if (waiting.length > 0) void this.#toDeadLetter(waiting);
    return {
      stop: async () => {
        if (this.#deadLetter === deadLetter) this.#deadLetter = undefined;
      },
    };
  }

  async send(tasks: readonly ChunkTask[]): Promise<void> {
    for (const task of tasks) this.#ready.push({ messageId: randomUUID(), body: encodeChunkTask(task), receiveCount: 0 });
    this.#pump();
  }

  /** Resolves once nothing is queued, delayed or in flight (tests and graceful shutdown). */
  idle(): Promise<void> {
    if (this.#isIdle()) return Promise.resolve();
    return new Promise((resolve) => this.#idleWaiters.push(resolve));
  }

  #isIdle(): boolean {
    return this.#ready.length === 0 && this.#inFlight === 0 && this.#delayed === 0;
  }

  #pump(): void {
    if (!this.#worker) return;
    while (this.#inFlight < this.#options.concurrency && this.#ready.length > 0) {
      const batch = this.#ready.splice(0, this.#options.batchSize);
      this.#inFlight++;
      // setImmediate: deliveries never run inside the sender's call stack, as with a real queue.
      setImmediate(() => void this.#deliver(batch));
    }
    if (this.#isIdle()) for (const resolve of this.#idleWaiters.splice(0)) resolve();
  }

  async #deliver(batch: Message[]): Promise<void> {
    for (const m of batch) m.receiveCount++;
    let failedIds: Set<string>;
    try {
      const response = await (this.#worker as SqsBatchHandler)({ Records: batch.map(toRecord) });
      failedIds = new Set((response?.batchItemFailures ?? []).map((f) => f.itemIdentifier));
    } catch {
      failedIds = new Set(batch.map((m) => m.messageId)); // a crashed invocation fails the whole batch
    }
    const failed = batch.filter((m) => failedIds.has(m.messageId));
    const dead = failed.filter((m) => m.receiveCount >= this.#options.maxReceiveCount);
    const retry = failed.filter((m) => m.receiveCount < this.#options.maxReceiveCount);
    if (dead.length > 0) await this.#toDeadLetter(dead);
    if (retry.length > 0) {
      this.#delayed++;
      setTimeout(() => {
        this.#delayed--;
        this.#ready.push(...retry);
        this.#pump();
      }, this.#options.retryDelayMs);
    }
    this.#inFlight--;
    this.#pump();
  }

  async #toDeadLetter(messages: Message[]): Promise<void> {
    const consumer = this.#deadLetter;
    if (!consumer) {
      this.#dead.push(...messages);
      return;
    }
    try {
      const response = await consumer({ Records: messages.map(toRecord) });
      const failed = new Set((response?.batchItemFailures ?? []).map((f) => f.itemIdentifier));
      this.#dead.push(...messages.filter((m) => failed.has(m.messageId)));
    } catch {
      this.#dead.push(...messages); // kept, as a DLQ keeps what its consumer could not process
    }
  }
}
