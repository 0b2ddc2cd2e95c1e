import { randomUUID } from 'node:crypto';
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { toSqsRecord } from '../sqs/to-sqs-record.js';
import type { SendOptions, TaskQueue } from '../../engine/task-queue.js';
import { isChunkTask, type EngineTask } from '../../engine/engine-task.js';
import { encodeTask } from '../../engine/task-codec.js';

/** A Lambda SQS handler: what the event source mapping calls, in production and here. */
export type SqsBatchHandler = (event: SQSEvent) => Promise<SQSBatchResponse | void>;

export interface InProcessQueueOptions {
  /** Concurrent "worker invocations" of chunk tasks, like the event source mapping's maximum concurrency. */
  readonly concurrency: number;
  /** Records per invocation. */
  readonly batchSize: number;
  /** Deliveries before a message goes to the dead-letter handler, like the queue's redrive policy. */
  readonly maxReceiveCount: number;
  /** Stand-in for the visibility timeout: how long a failed message waits before redelivery. */
  readonly retryDelayMs: number;
  /**
   * Chunk messages held at most; past it `send` waits for runners to take some (the planner of a huge batch slows
   * down instead of filling memory; SQS holds its messages itself). Default 100,000.
   */
  readonly maxQueuedChunks?: number;
  /** The lane's name, in its records' queue ARN. */
  readonly lane?: string;
}

interface Message {
  readonly messageId: string;
  readonly body: string;
  /** A chunk task waits its turn among `concurrency` runners; any other task (plan, merge, finalize) runs at once. */
  readonly chunk: boolean;
  /** Whose work it is: chunks are served tenant by tenant in turn. */
  readonly tenant: string;
  receiveCount: number;
}

/** One tenant's queued chunk messages; `head` moves instead of shifting (a million chunks would make shift quadratic). */
interface TenantChunks {
  readonly messages: Message[];
  head: number;
}

/**
 * The async engine's embedded queue for `npm start`, one instance per lane (jobs' chunks and merges; batches' plan,
 * chunk and finalize tasks), with the delivery contract of SQS + Lambda: message bodies in record batches, at least
 * once, partial batch failures, redelivery, dead-letter after max receives. Chunk tasks share `concurrency` runners;
 * every other task runs at once beside them, so a big request's chunks never starve another's planning, merge or end.
 * Chunks are served one tenant (API key) at a time in turn, as SQS fair queues share a standard queue's consumers, so
 * one key's 50,000-line batch does not hold every runner while another key's one-line batch waits behind it.
 */
export class InProcessTaskQueue<T extends EngineTask> implements TaskQueue<T> {
  readonly #options: InProcessQueueOptions;
  readonly #arn: string;
  readonly #urgent: Message[] = [];
  /** Queued chunks by tenant, and the tenants with queued chunks in serving order (the next is served first). */
  readonly #chunks = new Map<string, TenantChunks>();
  readonly #turns: string[] = [];
  #queuedChunks = 0;
  /** A lane whose chunks go first (`npm start`'s interactive jobs before batches: one process shares its scorers). */
  #yieldTo: InProcessTaskQueue<EngineTask> | undefined;
  readonly #quietListeners: (() => void)[] = [];
  #inFlight = 0;
  readonly #running = new Set<Message>();
  #inFlightChunks = 0;
  /** Failed messages waiting out their retry delay. */
  readonly #delayed = new Set<Message[]>();
  #closed = false;
  #settledWaiters: (() => void)[] = [];
  /** Dead-lettered messages wait here until a dead-letter consumer is attached, as in a real DLQ. */
  readonly #dead: Message[] = [];
  #worker: SqsBatchHandler | undefined;
  #deadLetter: SqsBatchHandler | undefined;
  #idleWaiters: (() => void)[] = [];
  #spaceWaiters: (() => void)[] = [];

  constructor(options: InProcessQueueOptions) {
    this.#options = options;
    this.#arn = `arn:aws:sqs:local:000000000000:rerank-${options.lane ?? 'tasks'}-in-process`;
  }

  /** Wires the consumers (the handlers Lambda runs, or the engine's routine). Messages sent before this wait. */
  attach(worker: SqsBatchHandler, deadLetter: SqsBatchHandler): void {
    this.consume(worker);
    this.consumeDeadLetters(deadLetter);
  }

  /**
   * This lane starts no chunk while `other` has chunks queued or running (in-flight ones finish): on one machine the two
   * lanes share the scorers, and the other lane's work is the one a caller waits for.
   */
  yieldsTo(other: InProcessTaskQueue<EngineTask>): void {
    this.#yieldTo = other;
    other.#quietListeners.push(() => this.#pump());
  }

  /** Chunks queued or running. */
  busy(): boolean {
    return this.#queuedChunks > 0 || this.#inFlightChunks > 0;
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

  /** The wire form is the engine's one (what SqsTaskQueue sends), so a task that does not survive it fails here too. */
  async send(tasks: readonly T[], options: SendOptions = {}): Promise<void> {
    const max = this.#options.maxQueuedChunks ?? 100_000;
    for (const task of tasks) {
      const message = {
        messageId: randomUUID(),
        body: encodeTask(task),
        chunk: isChunkTask(task),
        tenant: options.tenant ?? '',
        receiveCount: 0,
      };
      if (message.chunk) {
        while (this.#queuedChunks >= max) await new Promise<void>((resolve) => this.#spaceWaiters.push(resolve));
        this.#queueChunk(message);
      } else this.#urgent.push(message);
      this.#pump();
    }
  }

  #queueChunk(message: Message): void {
    let tenant = this.#chunks.get(message.tenant);
    if (!tenant) {
      this.#chunks.set(message.tenant, (tenant = { messages: [], head: 0 }));
      this.#turns.push(message.tenant);
    }
    tenant.messages.push(message);
    this.#queuedChunks++;
  }

  /**
   * Stops delivering, as a stopping process does: no message starts after this (what is queued stays queued), and the
   * promise resolves once the deliveries in flight have returned, so nothing is cut off mid-run.
   */
  close(): Promise<void> {
    this.#closed = true;
    if (this.#inFlight === 0) return Promise.resolve();
    return new Promise((resolve) => this.#settledWaiters.push(resolve));
  }

  /** The bodies of messages not yet done: queued, in flight, waiting to be retried or dead-lettered. */
  unfinishedBodies(): string[] {
    const chunks = [...this.#chunks.values()].flatMap((tenant) => tenant.messages.slice(tenant.head));
    return [...this.#urgent, ...chunks, ...[...this.#delayed].flat(), ...this.#running, ...this.#dead].map((m) => m.body);
  }

  /** Resolves once nothing is queued, delayed or in flight (tests and graceful shutdown). */
  idle(): Promise<void> {
    if (this.#isIdle()) return Promise.resolve();
    return new Promise((resolve) => this.#idleWaiters.push(resolve));
  }

  #isIdle(): boolean {
    return this.#urgent.length === 0 && this.#queuedChunks === 0 && this.#inFlight === 0 && this.#delayed.size === 0;
  }

  /** The next tenant's next chunks (at most batchSize, one tenant's); that tenant then waits for every other's turn. */
  #takeChunks(): Message[] {
    const name = this.#turns.shift() as string;
    const tenant = this.#chunks.get(name) as TenantChunks;
    const batch = tenant.messages.slice(tenant.head, tenant.head + this.#options.batchSize);
    tenant.head += batch.length;
    this.#queuedChunks -= batch.length;
    for (let i = 0; i < batch.length; i++) this.#spaceWaiters.shift()?.();
    if (tenant.head >= tenant.messages.length) this.#chunks.delete(name);
    else {
      this.#turns.push(name);
      // Drop the consumed head now and then.
      if (tenant.head > 4096 && tenant.head * 2 > tenant.messages.length) {
        tenant.messages.splice(0, tenant.head);
        tenant.head = 0;
      }
    }
    return batch;
  }

  #pump(): void {
    if (this.#worker && !this.#closed) {
      while (this.#urgent.length > 0) this.#start(this.#urgent.splice(0, 1), false);
      const yielding = (): boolean => this.#yieldTo?.busy() === true;
      while (this.#inFlightChunks < this.#options.concurrency && this.#queuedChunks > 0 && !yielding())
        this.#start(this.#takeChunks(), true);
    }
    if (!this.busy()) for (const listener of this.#quietListeners) listener();
    if (this.#isIdle()) for (const resolve of this.#idleWaiters.splice(0)) resolve();
  }

  #start(batch: Message[], chunks: boolean): void {
    this.#inFlight++;
    for (const m of batch) this.#running.add(m);
    if (chunks) this.#inFlightChunks++;
    // setImmediate: deliveries never run inside the sender's call stack, as with a real queue.
    setImmediate(() => void this.#deliver(batch, chunks));
  }

  #record(m: Message): SQSRecord {
    // The record shape the Lambda SQS event source delivers, built by the same function the SQS poller uses.
    const raw = {
      MessageId: m.messageId,
      ReceiptHandle: `${m.messageId}:${m.receiveCount}`,
      Body: m.body,
      Attributes: { ApproximateReceiveCount: String(m.receiveCount) },
    };
    return toSqsRecord(raw, this.#arn);
  }

  async #deliver(batch: Message[], chunks: boolean): Promise<void> {
    for (const m of batch) m.receiveCount++;
    let failedIds: Set<string>;
    try {
      const response = await (this.#worker as SqsBatchHandler)({ Records: batch.map((m) => this.#record(m)) });
      failedIds = new Set((response?.batchItemFailures ?? []).map((f) => f.itemIdentifier));
    } catch {
      failedIds = new Set(batch.map((m) => m.messageId)); // a crashed invocation fails the whole batch
    }
    const failed = batch.filter((m) => failedIds.has(m.messageId));
    const dead = failed.filter((m) => m.receiveCount >= this.#options.maxReceiveCount);
    const retry = failed.filter((m) => m.receiveCount < this.#options.maxReceiveCount);
    if (dead.length > 0) await this.#toDeadLetter(dead);
    for (const m of batch) this.#running.delete(m);
    if (retry.length > 0) {
      this.#delayed.add(retry);
      setTimeout(() => {
        this.#delayed.delete(retry);
        for (const m of retry) {
          if (m.chunk) this.#queueChunk(m);
          else this.#urgent.push(m);
        }
        this.#pump();
      }, this.#options.retryDelayMs);
    }
    this.#inFlight--;
    if (chunks) this.#inFlightChunks--;
    this.#pump();
    if (this.#inFlight === 0) for (const resolve of this.#settledWaiters.splice(0)) resolve();
  }

  /**
   * Hands messages that failed every delivery to the dead-letter consumer, redelivering what it fails as SQS redelivers
   * a dead-letter queue's messages (up to maxReceiveCount times here): a consumer that failed once (a store call) would
   * otherwise leave its job, line or batch unfinished. What it never takes stays, as a DLQ keeps it.
   */
  async #toDeadLetter(messages: Message[]): Promise<void> {
    let pending = messages;
    for (let attempt = 1; pending.length > 0; attempt++) {
      const consumer = this.#deadLetter;
      if (!consumer || attempt > this.#options.maxReceiveCount) break;
      if (attempt > 1) await new Promise((resolve) => setTimeout(resolve, this.#options.retryDelayMs));
      try {
        const response = await consumer({ Records: pending.map((m) => this.#record(m)) });
        const failed = new Set((response?.batchItemFailures ?? []).map((f) => f.itemIdentifier));
        pending = pending.filter((m) => failed.has(m.messageId));
      } catch {
        // A crashed invocation fails them all: the next attempt takes them again.
      }
    }
    this.#dead.push(...pending);
  }
}
