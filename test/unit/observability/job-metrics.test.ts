import type { JobTask } from '../../../shared/jobs/job-model.js';
import { describe, expect, it } from 'vitest';
import { captureEmfLines } from '../../support/emf-lines.js';

/** Job metrics are EMF lines on stdout (CloudWatch turns them into metrics; the JobsFailed alarm watches one). */
const emf = captureEmfLines();

/** Metric name -> values, from the EMF lines written so far. */
function emitted(): Record<string, number[]> {
  const found: Record<string, number[]> = {};
  for (const line of emf.lines) {
    if (!line.trimStart().startsWith('{')) continue;
    const emf = JSON.parse(line) as {
      _aws?: { CloudWatchMetrics: { Namespace: string; Dimensions: string[][]; Metrics: { Name: string }[] }[] };
    } & Record<string, unknown>;
    for (const set of emf._aws?.CloudWatchMetrics ?? []) {
      expect(set.Namespace).toBe('RerankService');
      // Only the service dimension: the alarm's metric has exactly that one.
      expect(set.Dimensions).toEqual([['service']]);
      for (const { Name } of set.Metrics) (found[Name] ??= []).push(emf[Name] as number);
    }
  }
  return found;
}

async function coordinator() {
  const { InProcessTaskQueue } = await import('../../../shared/adapters/in-process/in-process-task-queue.js');
  const { InMemoryJobStore } = await import('../../../shared/adapters/memory/in-memory-job-store.js');
  const { InMemoryChunkLedger } = await import('../../../shared/adapters/memory/in-memory-chunk-ledger.js');
  const { JobCoordinator } = await import('../../../shared/jobs/job-coordinator.js');
  const { planChunks } = await import('../../../shared/jobs/plan-chunks.js');
  const { rerankRequest } = await import('../../../shared/core/rerank-request.js');
  const store = new InMemoryJobStore();
  const queue = new InProcessTaskQueue<JobTask>({ concurrency: 1, batchSize: 1, maxReceiveCount: 1, retryDelayMs: 1 });
  let nowMs = Date.now();
  const jobs = new JobCoordinator({
    store,
    chunks: new InMemoryChunkLedger(),
    queue,
    jobTtlSeconds: 60,
    maxMessageBytes: 1 << 20,
    nowMs: () => nowMs,
  });
  const documents = ['a', 'bb', 'ccc'];
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
  return { jobs, job, tasks, advance: (seconds: number) => (nowMs += seconds * 1000) };
}

describe('job metrics, recorded once when a job ends', () => {
  it('records success, documents, chunks and wall time at merge', async () => {
    const { jobs, job, tasks, advance } = await coordinator();
    advance(7);
    for (const task of tasks) await jobs.recordChunk(task, { scores: task.documents.map(() => 0.5), tokens: 1 });
    // A duplicate delivery of the last chunk queues a second finish task: it merges nothing twice.
    await jobs.recordChunk(tasks[1]!, { scores: tasks[1]!.documents.map(() => 0.5), tokens: 1 });
    await jobs.merge(job.id);
    await jobs.merge(job.id);
    expect(emitted()).toEqual({ JobsSucceeded: [1], JobWallTime: [7], JobDocuments: [3], JobChunks: [2] });
  });

  it('records JobsFailed when a dead-lettered chunk fails its job, and only once', async () => {
    const { jobs, job } = await coordinator();
    await jobs.chunkDeadLettered(job.id, 0, 'chunk 0 dead-lettered');
    await jobs.chunkDeadLettered(job.id, 1, 'chunk 1 dead-lettered');
    expect(emitted()).toMatchObject({ JobsFailed: [1], JobDocuments: [3], JobChunks: [2] });
  });

  it('names the metric the alarm watches', async () => {
    const { JOBS_FAILED } = await import('../../../shared/observability/record-job-metrics.js');
    const { JOBS_FAILED_METRIC } = await import('../../../infra/constructs/rerank-monitoring.js');
    expect(JOBS_FAILED).toBe(JOBS_FAILED_METRIC);
  });
});
