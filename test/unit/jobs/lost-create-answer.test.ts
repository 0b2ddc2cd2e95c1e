import { describe, expect, it } from 'vitest';
import { InMemoryChunkLedger } from '../../../shared/adapters/memory/in-memory-chunk-ledger.js';
import { InMemoryJobStore } from '../../../shared/adapters/memory/in-memory-job-store.js';
import { rerankRequest, type RerankDocument } from '../../../shared/core/rerank-request.js';
import type { ChunkQueue } from '../../../shared/jobs/chunk-queue.js';
import { JobCoordinator, type JobSubmission } from '../../../shared/jobs/job-coordinator.js';
import type { JobSpec, JobTask } from '../../../shared/jobs/job-model.js';

/** A store whose next create is applied but answered with an error: a lost response no SDK retry recovered (maxAttempts 1). */
class LostAnswerJobStore extends InMemoryJobStore {
  loseNext = true;

  override async create(spec: JobSpec, documents: readonly RerankDocument[] | undefined, now: number): Promise<void> {
    await super.create(spec, documents, now);
    if (this.loseNext) {
      this.loseNext = false;
      throw new Error('socket hang up');
    }
  }
}

class RecordingQueue implements ChunkQueue {
  readonly sent: JobTask[] = [];
  async send(tasks: readonly JobTask[]): Promise<void> {
    this.sent.push(...tasks);
  }
}

function setup() {
  const store = new LostAnswerJobStore();
  const queue = new RecordingQueue();
  const jobs = new JobCoordinator({
    store,
    chunks: new InMemoryChunkLedger(),
    queue,
    jobTtlSeconds: 60,
    maxMessageBytes: 1 << 20,
    nowMs: () => 1_800_000_000_000,
  });
  const submission: JobSubmission = {
    request: rerankRequest(
      'q',
      ['a', 'bb', 'ccc'].map((text) => ({ text })),
    ),
    dialect: 'openai',
    ownerKeyId: 'k',
    model: 'm',
    activation: 'none',
    batchSize: 2,
  };
  return { store, queue, jobs, submission };
}

describe('a job whose create was applied but its answer lost', () => {
  it('is queued and answered as accepted (before: the submit threw and the job read `running` with no chunks queued)', async () => {
    const { queue, jobs, submission } = setup();
    const job = await jobs.submit(submission);
    expect(job).toMatchObject({ status: 'running', chunkCount: 2, chunksDone: 0 });
    expect(queue.sent).toHaveLength(2);
  });

  it('with an Idempotency-Key, is queued too, not answered as a replay of itself that nothing would ever run', async () => {
    const { queue, jobs, submission } = setup();
    const { job, replayed } = await jobs.submitIdempotent(submission, 'key-1');
    expect(replayed).toBe(false);
    expect(queue.sent.filter((task) => !('kind' in task)).map((task) => 'jobId' in task && task.jobId)).toEqual([job.id, job.id]);
    // A later retry with the key replays the job and queues nothing more.
    expect(await jobs.submitIdempotent(submission, 'key-1')).toMatchObject({ job: { id: job.id }, replayed: true });
    expect(queue.sent).toHaveLength(2);
  });

  it('still fails the submit when nothing was written', async () => {
    const { store, queue, jobs, submission } = setup();
    store.loseNext = false;
    store.create = async () => {
      throw new Error('socket hang up');
    };
    await expect(jobs.submit(submission)).rejects.toThrow('socket hang up');
    expect(queue.sent).toEqual([]);
  });
});
