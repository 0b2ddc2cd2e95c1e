import { JOB_CANCELLED_REASON } from '../jobs/job-coordinator.js';
import type { JobRecord } from '../jobs/job-model.js';

export const jobPollPath = (jobId: string): string => `/v1/rerank/jobs/${encodeURIComponent(jobId)}`;

/** The poll body: status and progress always; the dialect-formatted result once succeeded; the reason once failed. */
export function jobView(job: JobRecord, result?: unknown, basePath = ''): Record<string, unknown> {
  return {
    id: job.id,
    object: 'rerank.job',
    status: job.status,
    dialect: job.dialect,
    model: job.model,
    progress: { chunks_done: job.chunksDone, chunks_total: job.chunkCount },
    created_at: job.createdAt,
    updated_at: job.updatedAt,
    expires_at: job.expiresAt,
    poll_url: `${basePath}${jobPollPath(job.id)}`,
    ...(result !== undefined ? { result } : {}),
    ...(job.status === 'failed' ? { error: failure(job) } : {}),
  };
}

/**
 * Why a job failed. A cancelled job keeps the status word `failed` (the job wire has three statuses, and published
 * clients, this project's SDK among them, refuse a fourth as a malformed reply) and says `code: "job_cancelled"`; a
 * batch, on OpenAI's wire, reads `cancelled`.
 */
function failure(job: JobRecord): { message: string; code?: string } {
  const message = job.error ?? 'the job failed';
  return message === JOB_CANCELLED_REASON ? { message, code: 'job_cancelled' } : { message };
}
