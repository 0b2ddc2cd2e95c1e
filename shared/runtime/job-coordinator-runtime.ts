import type { ServiceConfig } from '../config/service-config.js';
import { JobCoordinator } from '../jobs/job-coordinator.js';
import type { ChunkFuser } from '../engine/rank-chunk-scores.js';
import type { BackendAdapters } from './backend.js';

/** The one way a process builds its JobCoordinator from configuration and storage adapters. */
export function createJobCoordinator(
  config: ServiceConfig,
  adapters: Pick<BackendAdapters, 'store' | 'chunks' | 'queue' | 'quota'>,
  fuserFor: (modelId: string) => ChunkFuser | undefined,
): JobCoordinator {
  return new JobCoordinator({
    store: adapters.store,
    chunks: adapters.chunks,
    queue: adapters.queue,
    jobTtlSeconds: config.jobs.ttlSeconds,
    maxMessageBytes: config.jobs.maxMessageBytes,
    quota: adapters.quota,
    fuserFor,
  });
}
