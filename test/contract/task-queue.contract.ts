import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import type { EngineTask } from '../../shared/engine/engine-task.js';
import { describe, expect, it } from 'vitest';
import type { TaskQueue } from '../../shared/engine/task-queue.js';
import { BATCH_LANE, JOB_LANE, type QueueLane } from './task-queue-lanes.js';

export type QueueHandler = (event: SQSEvent) => Promise<SQSBatchResponse>;

/**
 * What a queue adapter offers the contract for one lane: a TaskQueue to send with, and a way to consume its messages
 * (and its dead letters) with the worker's Lambda-style SQS handler. Each harness is a fresh, empty queue.
 */
export interface TaskQueueHarness<T> {
  readonly queue: TaskQueue<T>;
  /** Failed deliveries after which a message goes to the dead-letter consumer. */
  readonly maxReceiveCount: number;
  /** Consumers must make failed items visible again promptly, or the redelivery tests take a visibility timeout. */
  consume(handler: QueueHandler): { stop(): Promise<void> };
  consumeDeadLetters(handler: QueueHandler): { stop(): Promise<void> };
  /**
   * Resolves once every message sent has been acknowledged or dead-lettered and consumed (nothing queued,
   * delayed or in flight in either queue): from then on no duplicate can arrive, so "exactly once" is judged
   * on an event rather than after a fixed wait.
   */
  settled(): Promise<void>;
  dispose(): Promise<void>;
}

/** Makes a fresh harness for a lane (the adapter picks the lane's queue, e.g. SqsTaskQueue's 'chunk' or 'batch'). */
export type MakeTaskQueueHarness = <T extends EngineTask>(lane: QueueLane<T>) => Promise<TaskQueueHarness<T>>;

async function waitFor(condition: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Runs `body` with a fresh harness and always disposes it. */
async function withHarness<T>(make: () => Promise<TaskQueueHarness<T>>, body: (h: TaskQueueHarness<T>) => Promise<void>): Promise<void> {
  const harness = await make();
  try {
    await body(harness);
  } finally {
    await harness.dispose();
  }
}

/** Records every delivered task; `fail` decides per task whether the handler reports it as a batch item failure. */
function recorder<T>(lane: QueueLane<T>, fail: (index: number, seenBefore: number) => boolean = () => false) {
  const seen: T[] = [];
  const count = (index: number) => seen.filter((s) => lane.index(s) === index).length;
  const handler: QueueHandler = async (event) => {
    const batchItemFailures = [];
    for (const record of event.Records) {
      const task = lane.decode(record.body);
      const before = count(lane.index(task));
      seen.push(task);
      if (fail(lane.index(task), before)) batchItemFailures.push({ itemIdentifier: record.messageId });
    }
    return { batchItemFailures };
  };
  return { seen, handler, count };
}

function describeLane<T extends EngineTask>(adapter: string, lane: QueueLane<T>, makeHarness: MakeTaskQueueHarness): void {
  const make = () => makeHarness(lane);
  const sorted = (tasks: readonly T[]) => [...tasks].sort((a, b) => lane.index(a) - lane.index(b));
  describe(`TaskQueue contract: ${adapter}, ${lane.name} lane`, () => {
    it('delivers 25 tasks exactly once to one consumer, intact', async () => {
      await withHarness(make, async (h) => {
        const tasks = Array.from({ length: 25 }, (_, i) => lane.task(i));
        await h.queue.send(tasks);
        const r = recorder(lane);
        const consumer = h.consume(r.handler);
        await waitFor(() => r.seen.length >= 25, 30_000, '25 deliveries');
        await h.settled();
        await consumer.stop();
        expect(sorted(r.seen)).toEqual(tasks);
      });
    });

    it("delivers tasks sent for a tenant (the key's id) like any other", async () => {
      await withHarness(make, async (h) => {
        const tasks = [lane.task(0), lane.task(1), lane.task(2)];
        await h.queue.send(tasks.slice(0, 2), { tenant: 'key-a-id' });
        await h.queue.send(tasks.slice(2), { tenant: 'key-b-id' });
        const r = recorder(lane);
        const consumer = h.consume(r.handler);
        await waitFor(() => r.seen.length >= 3, 30_000, '3 deliveries');
        await h.settled();
        await consumer.stop();
        expect(sorted(r.seen)).toEqual(tasks);
      });
    });

    it('redelivers an item the handler reported as failed', async () => {
      await withHarness(make, async (h) => {
        await h.queue.send([lane.task(0), lane.task(1), lane.task(2)]);
        const r = recorder(lane, (index, before) => index === 1 && before === 0);
        const consumer = h.consume(r.handler);
        await waitFor(() => r.count(1) >= 2 && r.count(0) >= 1 && r.count(2) >= 1, 30_000, 'redelivery of task 1');
        await h.settled();
        await consumer.stop();
        expect([r.count(0), r.count(1), r.count(2)]).toEqual([1, 2, 1]);
      });
    });

    it('moves a task that keeps failing to the dead-letter queue after maxReceiveCount deliveries', async () => {
      await withHarness(make, async (h) => {
        await h.queue.send([lane.task(7), lane.task(8)]);
        const r = recorder(lane, (index) => index === 7);
        const dead = recorder(lane);
        const consumer = h.consume(r.handler);
        const deadConsumer = h.consumeDeadLetters(dead.handler);
        await waitFor(() => dead.seen.length >= 1, 45_000, 'the poison task in the DLQ');
        await h.settled();
        await Promise.all([consumer.stop(), deadConsumer.stop()]);
        expect(dead.seen).toEqual([lane.task(7)]);
        expect(r.count(7)).toBe(h.maxReceiveCount);
        expect(r.count(8)).toBe(1);
      });
    });

    it("carries the lane's largest messages, batching them without exceeding the size limit", async () => {
      await withHarness(make, async (h) => {
        const large = lane.large();
        await h.queue.send(large);
        const r = recorder(lane);
        const consumer = h.consume(r.handler);
        await waitFor(() => r.seen.length >= large.length, 45_000, `${large.length} large deliveries`);
        await h.settled();
        await consumer.stop();
        expect(sorted(r.seen)).toEqual(sorted(large));
      });
    });
  });
}

/** The delivery contract of the engine's task queue, run for the job lane and the batch lane on one adapter. */
export function describeTaskQueueContract(adapter: string, makeHarness: MakeTaskQueueHarness): void {
  describeLane(adapter, JOB_LANE, makeHarness);
  describeLane(adapter, BATCH_LANE, makeHarness);
}
