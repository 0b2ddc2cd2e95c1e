import type { ScorerRegistry } from '../core/scorer-registry.js';
import type { JobTask } from './job-model.js';
import type { JobCoordinator } from './job-coordinator.js';

/**
 * One decoded task of the job lane on this process's scorers: a chunk through the engine's one run (JobLane), or the
 * job's finish. A throw reports the message as failed, so the queue redelivers it; after max receives it reaches the
 * dead-letter queue, whose recovery ends the job.
 */
export function runJobTask(task: JobTask, deps: { scorers: ScorerRegistry; jobs: JobCoordinator }): Promise<void> {
  return deps.jobs.laneWith((modelId) => deps.scorers.get(modelId)).handle(task);
}
