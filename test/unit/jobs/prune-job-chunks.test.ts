import { describe, expect, it } from 'vitest';
import type { JobTask } from '../../../shared/jobs/job-model.js';
import { InProcessTaskQueue } from '../../../shared/adapters/in-process/in-process-task-queue.js';
import { InMemoryChunkLedger } from '../../../shared/adapters/memory/in-memory-chunk-ledger.js';
import { InMemoryJobStore } from '../../../shared/adapters/memory/in-memory-job-store.js';
import { rerankRequest } from '../../../shared/core/rerank-request.js';
import { normalizeResults } from '../../../shared/core/normalize-results.js';
import { jobLedgerOwner, JOB_LEDGER_LINE } from '../../../shared/engine/chunk-ledger.js';
import { JobCoordinator } from '../../../shared/jobs/job-coordinator.js';
import { planChunks } from '../../../shared/jobs/plan-chunks.js';

const documents = Array.from({ length: 12 }, (_, i) => `document ${i}`);
/** Ties and a NaN, so the order rule (not just the values) decides what survives. */
const scoreOf = (i: number): number => (i === 7 ? Number.NaN : ([3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8][i] as number));

describe('a job chunk keeps only the scores that can reach its top_n', () => {
  it('stores top_n scores a chunk and merges to the same ranking as over every score', async () => {
    const store = new InMemoryJobStore();
    const ledger = new InMemoryChunkLedger();
    const queue = new InProcessTaskQueue<JobTask>({ concurrency: 1, batchSize: 1, maxReceiveCount: 1, retryDelayMs: 1 });
    const jobs = new JobCoordinator({ store, chunks: ledger, queue, jobTtlSeconds: 60, maxMessageBytes: 1 << 20 });
    const request = {
      ...rerankRequest(
        'q',
        documents.map((text) => ({ text })),
      ),
      topN: 2,
    };
    const job = await jobs.submit({ request, dialect: 'dashscope', ownerKeyId: 'k', model: 'm', activation: 'none', batchSize: 4 });
    const tasks = planChunks({ jobId: job.id, model: 'm', query: 'q', documents, batchSize: 4, maxMessageBytes: 1 << 20 });
    for (const task of tasks) await jobs.recordChunk(task, { scores: task.documents.map((_, i) => scoreOf(task.offset + i)), tokens: 1 });

    let stored = 0;
    for await (const chunk of ledger.readChunkScores(jobLedgerOwner(job.id), JOB_LEDGER_LINE)) stored += chunk.scores.length;
    expect(stored).toBe(2 * tasks.length);

    await jobs.merge(job.id);
    const outcome = await jobs.outcome((await jobs.find(job.id, 'k'))!);
    const everyScore = normalizeResults(
      documents.map((_, i) => scoreOf(i)),
      { activation: 'none', topN: 2, threshold: undefined, documents: undefined },
    );
    expect(outcome?.results.map((r) => [r.index, r.score])).toEqual(everyScore.map((r) => [r.index, r.score]));
  });
});
