import { describe, expect, it } from 'vitest';
import { InMemoryChunkLedger } from '../../../shared/adapters/memory/in-memory-chunk-ledger.js';
import { InMemoryJobStore } from '../../../shared/adapters/memory/in-memory-job-store.js';
import { InMemoryQuotaLedger } from '../../../shared/adapters/memory/in-memory-quota-ledger.js';
import { rerankRequest, type RerankDocument } from '../../../shared/core/rerank-request.js';
import type { ChunkQueue } from '../../../shared/jobs/chunk-queue.js';
import { JobCoordinator } from '../../../shared/jobs/job-coordinator.js';
import type { JobSpec, JobState } from '../../../shared/jobs/job-model.js';
import { JobExistsError } from '../../../shared/jobs/job-store.js';

/** The item of an expired job the store has not dropped yet (DynamoDB's TTL lags): reads miss it, creates collide. */
class ExpiredItemJobStore extends InMemoryJobStore {
  override async create(spec: JobSpec, _documents: readonly RerankDocument[] | undefined, _now: number): Promise<void> {
    throw new JobExistsError(spec.id);
  }

  override async get(): Promise<JobState | undefined> {
    return undefined;
  }
}

const queue: ChunkQueue = { send: async () => {} };

describe("a submit whose Idempotency-Key names an expired job's item", () => {
  it("is refused with a 400 and gives back the running job it took (before: held until the hold's expiry)", async () => {
    const quota = new InMemoryQuotaLedger();
    const jobs = new JobCoordinator({
      store: new ExpiredItemJobStore(),
      chunks: new InMemoryChunkLedger(),
      queue,
      quota,
      jobTtlSeconds: 60,
      maxMessageBytes: 1 << 20,
    });
    const submission = {
      request: rerankRequest('q', [{ text: 'a' }]),
      dialect: 'openai' as const,
      ownerKeyId: 'k',
      model: 'm',
      activation: 'none' as const,
      batchSize: 2,
      maxConcurrentJobs: 1,
    };
    await expect(jobs.submit(submission, 'key-1')).rejects.toMatchObject({ kind: 'invalid_request', param: 'Idempotency-Key' });
    expect((await quota.usage('k')).running_jobs).toBe(0);
  });
});
