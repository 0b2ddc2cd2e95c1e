import { describe, expect, it } from 'vitest';
import type { JobTask } from '../../../shared/jobs/job-model.js';
import { InProcessTaskQueue } from '../../../shared/adapters/in-process/in-process-task-queue.js';
import { InMemoryChunkLedger } from '../../../shared/adapters/memory/in-memory-chunk-ledger.js';
import { InMemoryJobStore } from '../../../shared/adapters/memory/in-memory-job-store.js';
import { InMemoryQuotaLedger } from '../../../shared/adapters/memory/in-memory-quota-ledger.js';
import { RateLimitedError } from '../../../shared/auth/rate-limited-error.js';
import { rerankRequest } from '../../../shared/core/rerank-request.js';
import { takeRunningBatch } from '../../../shared/batches/batch-quota.js';
import { RUNNING_RETRY_AFTER_SECONDS } from '../../../shared/engine/hold-running.js';
import { JobCoordinator } from '../../../shared/jobs/job-coordinator.js';

const refusal = async (attempt: () => Promise<unknown>): Promise<RateLimitedError> => {
  const error = await attempt().then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(RateLimitedError);
  return error as RateLimitedError;
};

describe('a refusal at the running-work limit', () => {
  it('is the same 429 with Retry-After on both lanes: a short wait for a job, a minute for a batch', async () => {
    const ledger = new InMemoryQuotaLedger();
    const queue = new InProcessTaskQueue<JobTask>({ concurrency: 1, batchSize: 1, maxReceiveCount: 1, retryDelayMs: 1 });
    const store = new InMemoryJobStore();
    const jobs = new JobCoordinator({
      store,
      chunks: new InMemoryChunkLedger(),
      queue,
      jobTtlSeconds: 60,
      maxMessageBytes: 1 << 20,
      quota: ledger,
    });
    const submit = () =>
      jobs.submit({
        request: rerankRequest('q', [{ text: 'a' }, { text: 'b' }]),
        dialect: 'dashscope',
        ownerKeyId: 'k',
        model: 'm',
        activation: 'none',
        batchSize: 1,
        maxConcurrentJobs: 1,
      });
    await submit();
    const job = await refusal(submit);

    const quota = { ledger, limits: { running_batches: 1 } };
    await takeRunningBatch(quota, { id: 'batch_a', ownerKeyId: 'k', expiresAt: 10_000 });
    const batch = await refusal(() => takeRunningBatch(quota, { id: 'batch_b', ownerKeyId: 'k', expiresAt: 10_000 }));

    for (const [error, kind] of [
      [job, 'job'],
      [batch, 'batch'],
    ] as const) {
      expect(error.kind).toBe('rate_limited');
      expect(error.headers['retry-after']).toBe(String(RUNNING_RETRY_AFTER_SECONDS[kind]));
    }
    expect(job.message).toBe('this key already has 1 jobs running (at most 1); wait for one to finish');
    expect(batch.message).toBe('this key already has 1 batches running (at most 1); wait for one to finish');
    expect(RUNNING_RETRY_AFTER_SECONDS).toEqual({ job: 5, batch: 60 });
  });
});
