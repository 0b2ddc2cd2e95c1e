import type { JobTask } from '../../../shared/jobs/job-model.js';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { InProcessTaskQueue } from '../../../shared/adapters/in-process/in-process-task-queue.js';
import { InMemoryChunkLedger } from '../../../shared/adapters/memory/in-memory-chunk-ledger.js';
import { InMemoryJobStore } from '../../../shared/adapters/memory/in-memory-job-store.js';
import { rerankRequest } from '../../../shared/core/rerank-request.js';
import { JobCoordinator } from '../../../shared/jobs/job-coordinator.js';
import { planChunks } from '../../../shared/jobs/plan-chunks.js';
import { metrics } from '../../../shared/observability/metrics.js';

afterEach(() => vi.restoreAllMocks());

describe('a finished job records the metrics of a synchronous request', () => {
  it('once, with its dialect, documents, tokens and raw score statistics', async () => {
    const added = vi.spyOn(metrics, 'addMetric');
    const dimensions = vi.spyOn(metrics, 'addDimension');
    const store = new InMemoryJobStore();
    const queue = new InProcessTaskQueue<JobTask>({ concurrency: 1, batchSize: 1, maxReceiveCount: 1, retryDelayMs: 1 });
    const jobs = new JobCoordinator({ store, chunks: new InMemoryChunkLedger(), queue, jobTtlSeconds: 60, maxMessageBytes: 1 << 20 });
    const documents = ['a', 'bb', 'ccc', 'dddd'];
    const job = await jobs.submit({
      request: rerankRequest(
        'q',
        documents.map((text) => ({ text })),
      ),
      dialect: 'dashscope',
      ownerKeyId: 'k',
      model: 'm',
      activation: 'none',
      batchSize: 2,
    });
    const tasks = planChunks({ jobId: job.id, model: 'm', query: 'q', documents, batchSize: 2, maxMessageBytes: 1 << 20 });
    for (const task of tasks) await jobs.recordChunk(task, { scores: task.documents.map((d) => d.length), tokens: 5 });
    await jobs.merge(job.id);

    const recorded = Object.fromEntries(added.mock.calls.map(([name, , value]) => [name, value]));
    expect(added.mock.calls.filter(([name]) => name === 'Documents')).toHaveLength(1);
    expect(recorded).toMatchObject({ Documents: 4, Tokens: 10, MeanScore: 2.5, ScoreGap: 1 });
    expect(dimensions).toHaveBeenCalledWith('dialect', 'dashscope');
  });
});
