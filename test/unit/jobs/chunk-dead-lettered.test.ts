import type { JobTask } from '../../../shared/jobs/job-model.js';
import { describe, expect, it } from 'vitest';
import { InProcessTaskQueue } from '../../../shared/adapters/in-process/in-process-task-queue.js';
import { InMemoryChunkLedger } from '../../../shared/adapters/memory/in-memory-chunk-ledger.js';
import { InMemoryJobStore } from '../../../shared/adapters/memory/in-memory-job-store.js';
import { rerankRequest } from '../../../shared/core/rerank-request.js';
import { jobLedgerOwner } from '../../../shared/engine/chunk-ledger.js';
import { JobCoordinator } from '../../../shared/jobs/job-coordinator.js';
import { planChunks } from '../../../shared/jobs/plan-chunks.js';

// The queue is never consumed here: the test plays the workers by hand.
function coordinator() {
  const store = new InMemoryJobStore();
  const chunks = new InMemoryChunkLedger();
  const queue = new InProcessTaskQueue<JobTask>({ concurrency: 1, batchSize: 1, maxReceiveCount: 1, retryDelayMs: 1 });
  return { chunks, jobs: new JobCoordinator({ store, chunks, queue, jobTtlSeconds: 60, maxMessageBytes: 1 << 20 }) };
}

const documents = ['a', 'bb', 'ccc', 'dddd'];

async function submitted() {
  const { chunks, jobs } = coordinator();
  const request = rerankRequest(
    'q',
    documents.map((text) => ({ text })),
  );
  const job = await jobs.submit({ request, dialect: 'openai', ownerKeyId: 'k', model: 'm', activation: 'none', batchSize: 2 });
  const tasks = planChunks({ jobId: job.id, model: 'm', query: 'q', documents, batchSize: 2, maxMessageBytes: 1 << 20 });
  const scoreOf = (chunk: number) => ({ scores: tasks[chunk]?.documents.map((d) => d.length) ?? [], tokens: 1 });
  return { chunks, jobs, job, tasks, scoreOf };
}

describe('JobCoordinator.chunkDeadLettered', () => {
  it('fails the job with the reason when the chunk was never recorded', async () => {
    const { jobs, job } = await submitted();
    await jobs.chunkDeadLettered(job.id, 1, 'chunk 1 dead-lettered');
    expect(await jobs.find(job.id, 'k')).toMatchObject({ status: 'failed', error: 'chunk 1 dead-lettered' });
  });

  it('keeps the job running when the chunk was recorded but others are still in flight', async () => {
    const { jobs, job, tasks, scoreOf } = await submitted();
    await jobs.recordChunk(tasks[1]!, scoreOf(1));
    await jobs.chunkDeadLettered(job.id, 1, 'chunk 1 dead-lettered');
    expect(await jobs.find(job.id, 'k')).toMatchObject({ status: 'running', chunksDone: 1 });
  });

  it('finishes the job when the dead-lettered chunk was in fact recorded last', async () => {
    const { chunks, jobs, job, scoreOf } = await submitted();
    // Both chunks recorded but the merge never ran (the worker died right after its write).
    await chunks.putChunkScores(jobLedgerOwner(job.id), 1, { chunkIndex: 0, offset: 0, ...scoreOf(0) }, 2);
    await chunks.putChunkScores(jobLedgerOwner(job.id), 1, { chunkIndex: 1, offset: 2, ...scoreOf(1) }, 2);
    await jobs.chunkDeadLettered(job.id, 1, 'chunk 1 dead-lettered');
    const done = await jobs.find(job.id, 'k');
    expect(done?.status).toBe('succeeded');
    expect((await jobs.outcome(done!))?.results.map((r) => r.index)).toEqual([3, 2, 1, 0]);
  });
});
