import { loadServiceConfig } from '../config/service-config.js';
import type { BatchTask } from '../batches/batch-model.js';
import type { DeadLetterRunner } from '../engine/run-task.js';
import type { JobCoordinator } from '../jobs/job-coordinator.js';
import { CannotFuseHereError, type ChunkFuser } from '../engine/rank-chunk-scores.js';
import { createBackend } from './create-backend.js';
import { buildOnce } from './build-once.js';
import { deadLetterBatchesOver } from './dead-letter-batches.js';
import { createJobCoordinator } from './job-coordinator-runtime.js';

/**
 * The whole runtime, imported only when needed: a static import would load ONNX Runtime into the dead-letter
 * function's cold start just to mark a job failed.
 */
const wholeRuntime = async () => (await import('./process-runtime.js')).serviceRuntime();

/** The batch worker's engine, over the whole runtime: imported only when a batch task needs a model here. */
const wholeBatchEngine = async () => (await import('./worker-batch-engine.js')).workerBatchEngine();

/** A fuser that loads the models only when a hybrid job is merged here: only for a chunk that was recorded after all. */
const lazyFuser =
  (modelId: string): ChunkFuser =>
  async (query, documents, modelScores) => {
    const { fuserOf } = await import('./service-runtime.js');
    const fuse = fuserOf((await wholeRuntime()).scorers, modelId);
    if (!fuse) throw new CannotFuseHereError(modelId);
    return fuse(query, documents, modelScores);
  };

/** The storage adapters, no model: what both lanes' recoveries are built over (one set per container). */
const storageBackend = buildOnce(async () => createBackend(loadServiceConfig()));

/**
 * The dead-letter consumer's slice: a JobCoordinator over the storage adapters, no scorer loaded to mark a job failed.
 * In-process (`memory` backend) the queue, store and slots live in the process's one runtime, so it is that one.
 */
export const deadLetterJobs: () => Promise<JobCoordinator> = buildOnce(async () => {
  const config = loadServiceConfig();
  if (config.jobs.backend === 'memory') return (await wholeRuntime()).jobs;
  return createJobCoordinator(config, await storageBackend(), lazyFuser);
});

/**
 * The batches' side of that slice (deadLetterBatchesOver): a batch's work ends over the storage adapters, and the models
 * load only for a chunk recorded after all. In-process it is the worker's engine over the one runtime.
 */
export const deadLetterBatches: () => Promise<DeadLetterRunner<BatchTask>> = buildOnce(async () => {
  const config = loadServiceConfig();
  if (config.jobs.backend === 'memory') return wholeBatchEngine();
  return deadLetterBatchesOver(config, (await storageBackend()).batches, wholeBatchEngine);
});
