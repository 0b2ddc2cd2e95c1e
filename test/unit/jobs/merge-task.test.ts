import { describe, expect, it } from 'vitest';
import { InMemoryChunkLedger } from '../../../shared/adapters/memory/in-memory-chunk-ledger.js';
import { InMemoryJobStore } from '../../../shared/adapters/memory/in-memory-job-store.js';
import { rerankRequest } from '../../../shared/core/rerank-request.js';
import { decodeJobTask, encodeTask, readDeadLetteredTask } from '../../../shared/engine/task-codec.js';
import type { ChunkQueue } from '../../../shared/jobs/chunk-queue.js';
import { JobCoordinator } from '../../../shared/jobs/job-coordinator.js';
import type { JobTask } from '../../../shared/jobs/job-model.js';
import { planChunks } from '../../../shared/jobs/plan-chunks.js';

/** A queue that only records what was sent: the test plays the workers. */
class RecordingQueue implements ChunkQueue {
  readonly sent: JobTask[] = [];
  async send(tasks: readonly JobTask[]): Promise<void> {
    this.sent.push(...tasks);
  }
}

async function setup() {
  const queue = new RecordingQueue();
  const jobs = new JobCoordinator({
    store: new InMemoryJobStore(),
    chunks: new InMemoryChunkLedger(),
    queue,
    jobTtlSeconds: 60,
    maxMessageBytes: 1 << 20,
  });
  const documents = ['a', 'bb', 'ccc', 'dddd', 'eeeee'];
  const job = await jobs.submit({
    request: rerankRequest(
      'q',
      documents.map((text) => ({ text })),
    ),
    dialect: 'openai',
    ownerKeyId: 'k',
    model: 'm',
    activation: 'none',
    batchSize: 2,
  });
  const tasks = planChunks({ jobId: job.id, model: 'm', query: 'q', documents, batchSize: 2, maxMessageBytes: 1 << 20 });
  const record = (i: number) => jobs.recordChunk(tasks[i]!, { scores: tasks[i]!.documents.map((d) => d.length), tokens: 1 });
  return { queue, jobs, job, record };
}

const finishes = (queue: RecordingQueue) => queue.sent.filter((t) => 'kind' in t && t.kind === 'finish');

describe("a job's finish task", () => {
  it('is queued by the chunk that completes the count, not run in its worker; the job ends when the task runs', async () => {
    const { queue, jobs, job, record } = await setup();
    await record(2);
    await record(0);
    expect(finishes(queue)).toEqual([]);
    await record(1);
    expect(finishes(queue)).toEqual([{ kind: 'finish', jobId: job.id }]);
    // The chunk's worker is done; the job is still running until a worker runs the finish task.
    expect((await jobs.find(job.id, 'k'))?.status).toBe('running');
    await jobs.merge(job.id);
    const done = await jobs.find(job.id, 'k');
    expect(done).toMatchObject({ status: 'succeeded', chunksDone: 3 });
    expect((await jobs.outcome(done!))?.results.map((r) => r.index)).toEqual([4, 3, 2, 1, 0]);
  });

  it('is queued again by a redelivered last chunk, and a second merge changes nothing', async () => {
    const { queue, jobs, job, record } = await setup();
    for (const i of [0, 1, 2, 2]) await record(i);
    expect(finishes(queue)).toHaveLength(2);
    await jobs.merge(job.id);
    const first = await jobs.find(job.id, 'k');
    await jobs.merge(job.id);
    expect(await jobs.find(job.id, 'k')).toEqual(first);
  });

  it("travels as its job's finish task; anything else is a poison message", () => {
    expect(decodeJobTask(encodeTask({ kind: 'finish', jobId: 'j1' }))).toEqual({ kind: 'finish', jobId: 'j1' });
    const chunk = { jobId: 'j1', chunkIndex: 0, offset: 0, model: 'm', query: 'q', documents: ['a'], chunkCount: 1 };
    expect(decodeJobTask(encodeTask(chunk))).toEqual(chunk);
    expect(() => decodeJobTask('{"kind":"merge"}')).toThrow(TypeError);
    expect(() => decodeJobTask('{"kind":"drop","jobId":"j1"}')).toThrow(TypeError);
  });

  it('fails its job with its own reason when it reaches the dead-letter queue', () => {
    expect(readDeadLetteredTask('{"kind":"merge","jobId":"j1"}')).toEqual({
      of: 'job',
      jobId: 'j1',
      chunkIndex: undefined,
      reason: 'the job could not be merged: its merge failed on every delivery and was moved to the dead-letter queue',
    });
  });
});
