import { RerankError } from '../core/rerank-error.js';
import { requestFingerprint } from '../engine/request-fingerprint.js';
import type { JobRecord } from './job-model.js';
import type { JobSubmission } from './job-submission.js';

/** How long an ended job still answers an identical request from the same key (its answer replayed). */
export const JOIN_ENDED_JOB_SECONDS = 5 * 60;

/**
 * Ended jobs of one request looked past before a new one is not joined (each link ended JOIN_ENDED_JOB_SECONDS
 * before the next began): a key resending one request all day stops joining, it never loops.
 */
const MAX_GENERATIONS = 32;

/** What joining needs of the coordinator: the idempotent submit and its replay lookup. */
export interface JoinableJobs {
  submit(submission: JobSubmission, idempotencyKey?: string): Promise<JobRecord>;
  findIdempotent(submission: JobSubmission, idempotencyKey: string): Promise<JobRecord | undefined>;
}

/**
 * The implicit Idempotency-Key of a request that became a job without one: the request's fingerprint (the job id hashes
 * it with the key id, so another key or another body never joins) and a generation. A space keeps it apart from every
 * explicit key, which is visible ASCII only.
 */
const implicitKey = (fingerprint: string, generation: number): string => `implicit ${fingerprint} ${generation}`;

/**
 * Submits a synchronous request that became a job, joining the same key's identical job when one is running or ended
 * less than JOIN_ENDED_JOB_SECONDS ago: an SDK that resends the 504 `job_still_running` waits on the first job instead
 * of starting one more. Past that the next generation's id is used - a new job, not a cached answer.
 */
export async function submitOrJoin(jobs: JoinableJobs, submission: JobSubmission, now: number): Promise<JobRecord> {
  const fingerprint = requestFingerprint(submission.dialect, submission.model, submission.request);
  for (let generation = 0; generation < MAX_GENERATIONS; generation++) {
    const key = implicitKey(fingerprint, generation);
    const found = await jobs.findIdempotent(submission, key);
    if (found && found.status !== 'running' && now - found.updatedAt >= JOIN_ENDED_JOB_SECONDS) continue;
    try {
      return await jobs.submit(submission, key);
    } catch (error) {
      // The id is held by an expired job the store has not dropped yet: the next generation is free.
      if (error instanceof RerankError && error.param === 'Idempotency-Key') continue;
      throw error;
    }
  }
  return jobs.submit(submission);
}
