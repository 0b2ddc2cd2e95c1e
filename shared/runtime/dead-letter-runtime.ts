import { loadServiceConfig } from '../config/service-config.js';
import type { JobCoordinator } from '../jobs/job-coordinator.js';
import { CannotFuseHereError, type ChunkFuser } from '../engine/rank-chunk-scores.js';
import { createBackend } from './create-backend.js';
import { buildOnce } from './build-once.js';
import { createJobCoordinator } from './job-coordinator-runtime.js';

/**
 * The whole runtime, imported only when needed: a static import would load ONNX Runtime into the dead-letter
 * function's cold start just to mark a job failed.
 */
const wholeRuntime = async () => (await import('./process-runtime.js')).serviceRuntime();

/** A fuser that loads the models only when a hybrid job is merged here: only for a chunk that was recorded after all. */
const lazyFuser =
  (modelId: string): ChunkFuser =>
  async (query, documents, modelScores) => {
    const { fuserOf } = await import('./service-runtime.js');
    const fuse = fuserOf((await wholeRuntime()).scorers, modelId);
    if (!fuse) throw new CannotFuseHereError(modelId);
    return fuse(query, documents, modelScores);
  };

/**
 * The dead-letter consumer's slice: a JobCoordinator over the storage adapters, no scorer loaded to mark a job failed.
 * In-process (`memory` backend) the queue, store and slots live in the process's one runtime, so it is that one.
 */
export const deadLetterJobs: () => Promise<JobCoordinator> = buildOnce(async () => {
  const config = loadServiceConfig();
  if (config.jobs.backend === 'memory') return (await wholeRuntime()).jobs;
  return createJobCoordinator(config, createBackend(config), lazyFuser);
});
