import type { ServiceConfig } from '../config/service-config.js';
import { loadServiceConfig } from '../config/service-config.js';
import { JobCoordinator, type ChunkFuser } from '../jobs/job-coordinator.js';
import { IncompleteJobError } from '../jobs/merge-chunk-scores.js';
import { createBackendAdapters, type BackendAdapters } from './backend-adapters.js';

/** The one way a process builds its JobCoordinator from configuration and storage adapters. */
export function createJobCoordinator(
  config: ServiceConfig,
  adapters: Pick<BackendAdapters, 'store' | 'queue' | 'jobSlots'>,
  fuserFor: (modelId: string) => ChunkFuser | undefined,
): JobCoordinator {
  return new JobCoordinator({
    store: adapters.store,
    queue: adapters.queue,
    jobTtlSeconds: config.jobs.ttlSeconds,
    maxMessageBytes: config.jobs.maxMessageBytes,
    slots: adapters.jobSlots,
    fuserFor,
  });
}

/**
 * A fuser that loads the models only when a hybrid job is merged here, which the dead-letter consumer
 * does only for a chunk that was recorded after all. The import is dynamic so that nothing else in
 * that function loads ONNX Runtime.
 */
const lazyFuser =
  (modelId: string): ChunkFuser =>
  async (query, documents, modelScores) => {
    const { serviceRuntime, fuserOf } = await import('./service-runtime.js');
    const fuse = fuserOf((await serviceRuntime()).scorers, modelId);
    if (!fuse) throw new IncompleteJobError(`model '${modelId}' cannot fuse scores here`);
    return fuse(query, documents, modelScores);
  };

let deadLetterCoordinator: Promise<JobCoordinator> | undefined;

/**
 * The dead-letter consumer's JobCoordinator: storage adapters only, no scorer loaded to mark a job failed.
 * In-process (`memory` backend) the queue, store and slots live in the process's one runtime, so it is that one.
 */
export function deadLetterJobs(): Promise<JobCoordinator> {
  const current =
    deadLetterCoordinator ??
    (async () => {
      const config = loadServiceConfig();
      if (config.jobs.backend === 'memory') {
        const { serviceRuntime } = await import('./service-runtime.js');
        return (await serviceRuntime()).jobs;
      }
      return createJobCoordinator(config, createBackendAdapters(config), lazyFuser);
    })().catch((error: unknown) => {
      deadLetterCoordinator = undefined;
      throw error;
    });
  deadLetterCoordinator = current;
  return current;
}
