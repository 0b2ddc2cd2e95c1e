import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { InProcessTaskQueue } from '../../../shared/adapters/in-process/in-process-task-queue.js';
import type { BatchTask } from '../../../shared/batches/batch-model.js';
import { DEFAULT_BATCH_LIMITS } from '../../../shared/batches/batch-limits.js';
import { loadServiceConfig } from '../../../shared/config/service-config.js';
import { decodeBatchTask } from '../../../shared/engine/task-codec.js';

const chunk = (line: number): BatchTask => ({ kind: 'chunk', batchId: 'b', line, chunkIndex: 0, offset: 0, count: 1 });

/** A Lambda-style consumer over decoded tasks: a task whose `run` throws is reported as a batch item failure. */
const consumer =
  (run: (task: BatchTask) => Promise<void>) =>
  async (event: SQSEvent): Promise<SQSBatchResponse> => {
    const batchItemFailures: { itemIdentifier: string }[] = [];
    for (const record of event.Records) {
      await run(decodeBatchTask(record.body)).catch(() => batchItemFailures.push({ itemIdentifier: record.messageId }));
    }
    return { batchItemFailures };
  };
const nameOf = (task: BatchTask) => (task.kind === 'chunk' ? `chunk-${task.line}` : task.kind);
const options = { batchSize: 1, retryDelayMs: 1 };

describe('InProcessTaskQueue', () => {
  it('close() starts nothing more, resolves once the delivery in flight returned, and names what is left undone', async () => {
    const queue = new InProcessTaskQueue<BatchTask>({ ...options, concurrency: 1, maxReceiveCount: 2 });
    const ran: string[] = [];
    let release!: () => void;
    const running = new Promise<void>((resolve) => (release = resolve));
    let started!: () => void;
    const firstStarted = new Promise<void>((resolve) => (started = resolve));
    queue.attach(
      consumer(async (task) => {
        ran.push(nameOf(task));
        started();
        await running;
      }),
      consumer(async () => undefined),
    );
    await queue.send([chunk(1), chunk(2), chunk(3)]);
    await firstStarted;
    let closed = false;
    const closing = queue.close().then(() => (closed = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(closed).toBe(false);
    release();
    await closing;
    expect(ran).toEqual(['chunk-1']);
    expect(queue.unfinishedBodies().map((body) => nameOf(decodeBatchTask(body)))).toEqual(['chunk-2', 'chunk-3']);
  });

  it('runs plan and finalize tasks before queued chunks, retries failures and dead-letters after the last attempt', async () => {
    const queue = new InProcessTaskQueue<BatchTask>({ ...options, concurrency: 1, maxReceiveCount: 2 });
    const ran: string[] = [];
    const dead: string[] = [];
    await queue.send([chunk(1), chunk(2), { kind: 'plan', batchId: 'b' }, chunk(3)]);
    queue.attach(
      consumer(async (task) => {
        ran.push(nameOf(task));
        if (nameOf(task) === 'chunk-2') throw new Error('scorer down');
      }),
      consumer(async (task) => void dead.push(nameOf(task))),
    );
    await queue.idle();
    expect(ran).toEqual(['plan', 'chunk-1', 'chunk-2', 'chunk-3', 'chunk-2']);
    expect(dead).toEqual(['chunk-2']);
  });

  it('delivers a dead letter again while its consumer fails, as SQS redelivers a DLQ message', async () => {
    const queue = new InProcessTaskQueue<BatchTask>({ ...options, concurrency: 1, maxReceiveCount: 3 });
    let tries = 0;
    queue.attach(
      consumer(async () => {
        throw new Error('always');
      }),
      consumer(async () => {
        if (++tries < 3) throw new Error('store unavailable');
      }),
    );
    await queue.send([chunk(1)]);
    await queue.idle();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(tries).toBe(3);
  });
});

describe('InProcessTaskQueue fairness', () => {
  it("serves tenants' chunks in turn: one key's 40 queued chunks do not hold the runner from another key's one", async () => {
    const queue = new InProcessTaskQueue<BatchTask>({ ...options, concurrency: 1, maxReceiveCount: 1 });
    const ran: string[] = [];
    await queue.send(
      Array.from({ length: 40 }, (_, i) => ({ ...chunk(i + 1), batchId: 'a' })),
      { tenant: 'key-a' },
    );
    await queue.send([{ ...chunk(1), batchId: 'b' }], { tenant: 'key-b' });
    queue.attach(
      consumer(async (task) => void ran.push(`${task.batchId}${task.kind === 'chunk' ? task.line : ''}`)),
      consumer(async () => undefined),
    );
    await queue.idle();
    expect(ran.slice(0, 3)).toEqual(['a1', 'b1', 'a2']);
    expect(ran).toHaveLength(41);
  });

  it("a lane that yields starts no chunk while the other lane has chunks queued or running (npm start's jobs before batches)", async () => {
    const jobs = new InProcessTaskQueue<BatchTask>({ ...options, concurrency: 1, maxReceiveCount: 1 });
    const batches = new InProcessTaskQueue<BatchTask>({ ...options, concurrency: 1, maxReceiveCount: 1 });
    batches.yieldsTo(jobs);
    const ran: string[] = [];
    const record = (lane: string) => consumer(async (task) => void ran.push(`${lane}${task.kind === 'chunk' ? task.line : ''}`));
    await jobs.send([1, 2, 3].map(chunk));
    await batches.send([1, 2].map(chunk));
    batches.attach(
      record('batch'),
      consumer(async () => undefined),
    );
    jobs.attach(
      record('job'),
      consumer(async () => undefined),
    );
    await jobs.idle();
    await batches.idle();
    expect(ran).toEqual(['job1', 'job2', 'job3', 'batch1', 'batch2']);
  });
});

describe('InProcessTaskQueue backpressure', () => {
  it('never deadlocks: planners waiting for space do not hold the chunk runners', async () => {
    const queue = new InProcessTaskQueue<BatchTask>({ ...options, concurrency: 1, maxReceiveCount: 1, maxQueuedChunks: 2 });
    const ran: string[] = [];
    queue.attach(
      consumer(async (task) => {
        if (task.kind === 'plan') await queue.send([10, 11, 12, 13].map((n) => chunk(n + (task.batchId === 'b2' ? 10 : 0))));
        else ran.push(task.kind === 'chunk' ? `${task.line}` : task.kind);
      }),
      consumer(async () => undefined),
    );
    await queue.send([
      { kind: 'plan', batchId: 'b1' },
      { kind: 'plan', batchId: 'b2' },
    ]);
    await queue.idle();
    expect(ran.sort()).toEqual(['10', '11', '12', '13', '20', '21', '22', '23']);
  });

  it('holds at most maxQueuedChunks chunk tasks: send waits until runners take some', async () => {
    const queue = new InProcessTaskQueue<BatchTask>({ ...options, concurrency: 1, maxReceiveCount: 1, maxQueuedChunks: 3 });
    let sent = false;
    const sending = queue.send([1, 2, 3, 4, 5, 6].map(chunk)).then(() => (sent = true));
    await new Promise((r) => setTimeout(r, 20));
    expect(sent).toBe(false);
    const ran: number[] = [];
    queue.attach(
      consumer(async (task) => void ran.push(task.kind === 'chunk' ? task.line : 0)),
      consumer(async () => undefined),
    );
    await sending;
    await queue.idle();
    expect(ran).toEqual([1, 2, 3, 4, 5, 6]);
  });
});

describe('batch quotas in config', () => {
  it('takes the documented defaults and the operator settings; refuses a setting that is not a positive integer', () => {
    const quotas = (env: Record<string, string>) => ({
      ...DEFAULT_BATCH_LIMITS,
      ...loadServiceConfig({ RERANK_MODELS: 'bm25=lexical', ...env }).batches,
    });
    expect(quotas({})).toEqual(DEFAULT_BATCH_LIMITS);
    expect(DEFAULT_BATCH_LIMITS.maxLinesPerBatch).toBe(50_000);
    expect(quotas({ RERANK_BATCH_MAX_LINES: '10', RERANK_BATCH_MAX_RUNNING: '2', RERANK_FILE_RETENTION_DAYS: '2' })).toMatchObject({
      maxLinesPerBatch: 10,
      maxRunningBatches: 2,
      outputRetentionSeconds: 2 * 86_400,
    });
    expect(() => quotas({ RERANK_BATCH_MAX_CORPUS_DOCUMENTS: '0' })).toThrow(
      /RERANK_BATCH_MAX_CORPUS_DOCUMENTS must be a positive integer/,
    );
  });
});
