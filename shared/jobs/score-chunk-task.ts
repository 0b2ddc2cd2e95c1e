import type { ScorerRegistry } from '../core/scorer-registry.js';
import { UnknownModelError } from '../core/scorer-registry.js';
import { isMergeTask, type ChunkTask, type JobTask } from './job-model.js';
import { scoreChunk } from '../engine/chunk-scoring.js';
import { annotateJob, traced } from '../observability/tracer.js';
import type { JobCoordinator } from './job-coordinator.js';

/**
 * One decoded chunk task (the queue adapter's handler decodes the message): score it with the same Scorer as the
 * synchronous path and record it. A throw reports the message as failed, so the queue redelivers it; after max
 * receives it reaches the dead-letter queue, whose handler fails the job. A crash between scoring and writing loses
 * nothing: the message is not deleted, and the rescored chunk is recorded exactly once.
 */
export async function scoreChunkTask(task: ChunkTask, deps: { scorers: ScorerRegistry; jobs: JobCoordinator }): Promise<void> {
  annotateJob(task.jobId);
  let scorer;
  try {
    scorer = deps.scorers.get(task.model);
  } catch (error) {
    // Retrying cannot make an unknown model appear: fail the job now instead of after every retry.
    if (!(error instanceof UnknownModelError)) throw error;
    await deps.jobs.fail(task.jobId, `model '${task.model}' is not loaded by the workers`);
    return;
  }
  // A cancelled, failed or expired job's chunks are acknowledged unscored: no CPU for results nobody reads.
  const job = await deps.jobs.runningJob(task.jobId);
  if (!job) return;
  const chunk = {
    query: task.query,
    texts: task.documents,
    instruction: task.instruction,
    maxDocumentTokens: task.maxDocumentTokens,
    maxQueryTokens: task.maxQueryTokens,
    truncationSide: task.truncationSide,
  };
  const batch = await traced('scoring', () => scoreChunk(scorer, chunk, `chunk ${task.chunkIndex} of job ${task.jobId}`), {
    jobId: task.jobId,
  });
  await deps.jobs.recordChunk(task, batch, job);
}

/** One decoded message of the chunk queue: a chunk to score and record, or a job to merge (its chunks are all in). */
export async function runJobTask(task: JobTask, deps: { scorers: ScorerRegistry; jobs: JobCoordinator }): Promise<void> {
  if (!isMergeTask(task)) return scoreChunkTask(task, deps);
  annotateJob(task.jobId);
  await traced('merge', () => deps.jobs.merge(task.jobId), { jobId: task.jobId });
}
