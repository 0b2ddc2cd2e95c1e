import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { decodeChunkTask } from '../../shared/engine/job-task-codec.js';
import type { ChunkQueue } from '../../shared/jobs/chunk-queue.js';
import type { ChunkTask } from '../../shared/jobs/job-model.js';

export type QueueHandler = (event: SQSEvent) => Promise<SQSBatchResponse>;

/**
 * What a queue adapter pair offers the contract: a ChunkQueue to send with, and a way to consume its messages
 * (and its dead letters) with the worker's Lambda-style SQS handler. Each harness is a fresh, empty queue.
 */
export interface ChunkQueueHarness {
  readonly queue: ChunkQueue;
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

const task = (chunkIndex: number, documents: string[] = [`doc ${chunkIndex}a`, `doc ${chunkIndex}b`]): ChunkTask => ({
  jobId: 'job-1',
  chunkIndex,
  offset: chunkIndex * documents.length,
  model: 'rerank-test',
  query: 'what is a queue?',
  documents,
});

async function waitFor(condition: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Runs `body` with a fresh harness and always disposes it. */
async function withHarness(make: () => Promise<ChunkQueueHarness>, body: (h: ChunkQueueHarness) => Promise<void>): Promise<void> {
  const harness = await make();
  try {
    await body(harness);
  } finally {
    await harness.dispose();
  }
}

/** Records every delivered task; `fail` decides per task whether the handler reports it as a batch item failure. */
function recorder(fail: (t: ChunkTask, seenBefore: number) => boolean = () => false) {
  const seen: ChunkTask[] = [];
  const handler: QueueHandler = async (event) => {
    const batchItemFailures = [];
    for (const record of event.Records) {
      const t = decodeChunkTask(record.body);
      const before = seen.filter((s) => s.chunkIndex === t.chunkIndex).length;
      seen.push(t);
      if (fail(t, before)) batchItemFailures.push({ itemIdentifier: record.messageId });
    }
    return { batchItemFailures };
  };
  const count = (chunkIndex: number) => seen.filter((s) => s.chunkIndex === chunkIndex).length;
  return { seen, handler, count };
}

export function describeChunkQueueContract(name: string, makeHarness: () => Promise<ChunkQueueHarness>): void {
  describe(`ChunkQueue contract: ${name}`, () => {
    it('delivers 25 tasks exactly once to one consumer, intact', async () => {
      await withHarness(makeHarness, async (h) => {
        const tasks = Array.from({ length: 25 }, (_, i) => task(i));
        await h.queue.send(tasks);
        const r = recorder();
        const consumer = h.consume(r.handler);
        await waitFor(() => r.seen.length >= 25, 30_000, '25 deliveries');
        await h.settled();
        await consumer.stop();
        expect([...r.seen].sort((a, b) => a.chunkIndex - b.chunkIndex)).toEqual(tasks);
      });
    });

    it('redelivers an item the handler reported as failed', async () => {
      await withHarness(makeHarness, async (h) => {
        await h.queue.send([task(0), task(1), task(2)]);
        const r = recorder((t, before) => t.chunkIndex === 1 && before === 0);
        const consumer = h.consume(r.handler);
        await waitFor(() => r.count(1) >= 2 && r.count(0) >= 1 && r.count(2) >= 1, 30_000, 'redelivery of chunk 1');
        await h.settled();
        await consumer.stop();
        expect([r.count(0), r.count(1), r.count(2)]).toEqual([1, 2, 1]);
      });
    });

    it('moves a task that keeps failing to the dead-letter queue after maxReceiveCount deliveries', async () => {
      await withHarness(makeHarness, async (h) => {
        await h.queue.send([task(7), task(8)]);
        const r = recorder((t) => t.chunkIndex === 7);
        const dead = recorder();
        const consumer = h.consume(r.handler);
        const deadConsumer = h.consumeDeadLetters(dead.handler);
        await waitFor(() => dead.seen.length >= 1, 45_000, 'the poison task in the DLQ');
        await h.settled();
        await Promise.all([consumer.stop(), deadConsumer.stop()]);
        expect(dead.seen).toEqual([task(7)]);
        expect(r.count(7)).toBe(h.maxReceiveCount);
        expect(r.count(8)).toBe(1);
      });
    });

    it('carries a 900 KB task, and batches many large tasks without exceeding the size limit', async () => {
      await withHarness(makeHarness, async (h) => {
        const big = task(
          0,
          Array.from({ length: 9 }, (_, i) => `${i}`.repeat(100_000)),
        );
        const large = Array.from({ length: 12 }, (_, i) => task(i + 1, ['y'.repeat(200_000)]));
        await h.queue.send([big, ...large]);
        const r = recorder();
        const consumer = h.consume(r.handler);
        await waitFor(() => r.seen.length >= 13, 45_000, '13 large deliveries');
        await consumer.stop();
        expect([...r.seen].sort((a, b) => a.chunkIndex - b.chunkIndex)).toEqual([big, ...large]);
      });
    });
  });
}
