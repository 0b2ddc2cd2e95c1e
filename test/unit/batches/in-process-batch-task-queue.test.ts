import { describe, expect, it } from 'vitest';
import { InProcessBatchTaskQueue } from '../../../shared/adapters/in-process/in-process-batch-task-queue.js';
import type { BatchTask } from '../../../shared/batches/batch-model.js';
import { DEFAULT_BATCH_LIMITS } from '../../../shared/batches/batch-limits.js';
import { loadServiceConfig } from '../../../shared/config/service-config.js';

const chunk = (line: number): BatchTask => ({ kind: 'chunk', batchId: 'b', line, chunkIndex: 0, offset: 0, count: 1 });

describe('InProcessBatchTaskQueue', () => {
  it('runs plan and finalize tasks before queued chunks, retries failures and dead-letters after the last attempt', async () => {
    const queue = new InProcessBatchTaskQueue({ concurrency: 1, maxAttempts: 2, retryDelayMs: 1 });
    const ran: string[] = [];
    const dead: string[] = [];
    await queue.send([chunk(1), chunk(2), { kind: 'plan', batchId: 'b' }, chunk(3)]);
    queue.attach({
      handle: async (task) => {
        const name = task.kind === 'chunk' ? `chunk-${task.line}` : task.kind;
        ran.push(name);
        if (name === 'chunk-2') throw new Error('scorer down');
      },
      taskDeadLettered: async (task, reason) => void dead.push(`${task.kind === 'chunk' ? task.line : task.kind}: ${reason}`),
    });
    await queue.idle();
    expect(ran).toEqual(['plan', 'chunk-1', 'chunk-2', 'chunk-3', 'chunk-2']);
    expect(dead).toEqual(['2: scorer down']);
  });
});

describe('InProcessBatchTaskQueue backpressure', () => {
  it('never deadlocks: planners waiting for space do not hold the chunk runners', async () => {
    const queue = new InProcessBatchTaskQueue({ concurrency: 1, maxAttempts: 1, retryDelayMs: 1, maxQueuedChunks: 2 });
    const ran: string[] = [];
    queue.attach({
      handle: async (task) => {
        if (task.kind === 'plan') await queue.send([10, 11, 12, 13].map((n) => chunk(n + (task.batchId === 'b2' ? 10 : 0))));
        else ran.push(task.kind === 'chunk' ? `${task.line}` : task.kind);
      },
      taskDeadLettered: async () => undefined,
    });
    await queue.send([{ kind: 'plan', batchId: 'b1' }, { kind: 'plan', batchId: 'b2' }]);
    await queue.idle();
    expect(ran.sort()).toEqual(['10', '11', '12', '13', '20', '21', '22', '23']);
  });

  it('holds at most maxQueuedChunks chunk tasks: send waits until runners take some', async () => {
    const queue = new InProcessBatchTaskQueue({ concurrency: 1, maxAttempts: 1, retryDelayMs: 1, maxQueuedChunks: 3 });
    let sent = false;
    const sending = queue.send([1, 2, 3, 4, 5, 6].map(chunk)).then(() => (sent = true));
    await new Promise((r) => setTimeout(r, 20));
    expect(sent).toBe(false);
    const ran: number[] = [];
    queue.attach({ handle: async (task) => void ran.push(task.kind === 'chunk' ? task.line : 0), taskDeadLettered: async () => undefined });
    await sending;
    await queue.idle();
    expect(ran).toEqual([1, 2, 3, 4, 5, 6]);
  });
});

describe('batch quotas in config', () => {
  it('takes the documented defaults and the operator settings; refuses a setting that is not a positive integer', () => {
    const quotas = (env: Record<string, string>) => ({ ...DEFAULT_BATCH_LIMITS, ...loadServiceConfig({ RERANK_MODELS: 'bm25=lexical', ...env }).batches });
    expect(quotas({})).toEqual(DEFAULT_BATCH_LIMITS);
    expect(DEFAULT_BATCH_LIMITS.maxLinesPerBatch).toBe(50_000);
    expect(quotas({ RERANK_BATCH_MAX_LINES: '10', RERANK_BATCH_MAX_RUNNING: '2', RERANK_FILE_RETENTION_DAYS: '2' })).toMatchObject({
      maxLinesPerBatch: 10,
      maxRunningBatches: 2,
      outputRetentionSeconds: 2 * 86_400,
    });
    expect(() => quotas({ RERANK_BATCH_MAX_CORPUS_DOCUMENTS: '0' })).toThrow(/RERANK_BATCH_MAX_CORPUS_DOCUMENTS must be a positive integer/);
  });
});
