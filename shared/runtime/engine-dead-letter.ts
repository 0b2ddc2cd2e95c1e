import { readDeadLetteredTask } from '../batches/engine-task.js';
import { logger } from '../observability/logger.js';
import { deadLetterJobs } from './dead-letter-runtime.js';

const BATCH_REASON = 'the task failed on every delivery and was moved to the dead-letter queue';

/**
 * THE dead-letter path of the async engine: a task that failed on every delivery ends its work failed with a
 * reason - a job (or finishes it, if its chunk was recorded after all), a batch line or a batch - so accepted
 * work is never lost. An unreadable message is dropped (it never becomes readable). The batch engine is imported
 * only for a batch task: the chunk dead-letter function loads no model to fail a job.
 */
export async function deadLetterEngineTask(body: string, messageId: string): Promise<void> {
  const dead = readDeadLetteredTask(body);
  if (!dead) {
    logger.error('unreadable dead-lettered task dropped', { messageId });
    return;
  }
  if (dead.of === 'batch') {
    const { workerBatchEngine } = await import('./worker-batch-engine.js');
    await (await workerBatchEngine()).taskDeadLettered(dead.task, BATCH_REASON);
    return;
  }
  try {
    await (await deadLetterJobs()).chunkDeadLettered(dead.jobId, dead.chunkIndex, dead.reason);
  } catch (error) {
    logger.error('could not mark job failed', { jobId: dead.jobId, error: error as Error });
    throw error;
  }
}
