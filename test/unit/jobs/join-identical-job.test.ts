import { describe, expect, it } from 'vitest';
import type { JobRecord } from '../../../shared/jobs/job-model.js';
import type { JobSubmission } from '../../../shared/jobs/job-coordinator.js';
import { JOIN_ENDED_JOB_SECONDS, submitOrJoin, type JoinableJobs } from '../../../shared/jobs/join-identical-job.js';

/** The coordinator's idempotent submit, as a map from (owner, key) to the job it created. */
function jobsByKey() {
  const jobs = new Map<string, JobRecord>();
  let created = 0;
  const port: JoinableJobs = {
    findIdempotent: async (s, key) => jobs.get(`${s.ownerKeyId}\n${key}`),
    submit: async (s, key) => {
      const id = key === undefined ? undefined : `${s.ownerKeyId}\n${key}`;
      const found = id === undefined ? undefined : jobs.get(id);
      if (found) return found;
      const job = { id: `job-${++created}`, status: 'running', updatedAt: 0 } as JobRecord;
      if (id !== undefined) jobs.set(id, job);
      return job;
    },
  };
  const end = (job: JobRecord, at: number) => {
    for (const [k, v] of jobs) if (v.id === job.id) jobs.set(k, { ...v, status: 'succeeded', updatedAt: at });
  };
  return { port, end };
}

const submission = (ownerKeyId: string, query = 'q') =>
  ({ ownerKeyId, dialect: 'cohere-v2', model: 'bm25', request: { query, documents: [{ text: 'a' }] } }) as unknown as JobSubmission;

describe('a synchronous request that became a job joins its key identical job', () => {
  it('while it runs and for five minutes after it ended; then a new job, not a cached answer', async () => {
    const { port, end } = jobsByKey();
    const first = await submitOrJoin(port, submission('k'), 1_000);
    expect((await submitOrJoin(port, submission('k'), 1_010)).id).toBe(first.id);
    end(first, 1_020);
    expect((await submitOrJoin(port, submission('k'), 1_020 + JOIN_ENDED_JOB_SECONDS - 1)).id).toBe(first.id);
    const next = await submitOrJoin(port, submission('k'), 1_020 + JOIN_ENDED_JOB_SECONDS);
    expect(next.id).not.toBe(first.id);
    // The new job is the one joined from now on.
    expect((await submitOrJoin(port, submission('k'), 1_020 + JOIN_ENDED_JOB_SECONDS + 5)).id).toBe(next.id);
  });

  it('never joins another key or another body', async () => {
    const { port } = jobsByKey();
    const first = await submitOrJoin(port, submission('k'), 1_000);
    expect((await submitOrJoin(port, submission('other'), 1_000)).id).not.toBe(first.id);
    expect((await submitOrJoin(port, submission('k', 'another query'), 1_000)).id).not.toBe(first.id);
  });
});
