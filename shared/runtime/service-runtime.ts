import { ApiKeyAuthenticator } from '../auth/api-key-authenticator.js';
import type { ApiKeyStore } from '../auth/api-key-store.js';
import { CachedApiKeyStore } from '../auth/cached-api-key-store.js';
import type { JobSlots } from '../auth/job-slots.js';
import { RequestAuthenticator } from '../http/request-authenticator.js';
import { createBackendAdapters } from './backend-adapters.js';
import { loadServiceConfig, type ServiceConfig } from '../config/service-config.js';
import { RerankService } from '../core/rerank-service.js';
import { BearerAuth } from '../http/bearer-auth.js';
import type { ChunkQueue } from '../jobs/chunk-queue.js';
import { JobCoordinator } from '../jobs/job-coordinator.js';
import type { JobStore } from '../jobs/job-store.js';
import { createDefaultHybridScorer, isLexicalOrHybrid, isSplittableHybrid } from '../scoring/hybrid/index.js';
import { createBm25Scorer } from '../scoring/lexical/index.js';
import type { Scorer } from '../scoring/scorer.js';
import { createUpstreamScorer } from '../scoring/upstream/upstream-scorer.js';
import { loadScorers } from './load-scorers.js';
import { createScorerRegistry, type ScorerRegistry } from '../scoring/scorer-registry.js';

/** Everything a process serves with, built once: the API function, the workers and `npm start` share it. */
export interface ServiceRuntime {
  readonly config: ServiceConfig;
  readonly scorers: ScorerRegistry;
  readonly service: RerankService;
  readonly jobs: JobCoordinator;
  readonly auth: RequestAuthenticator;
  readonly store: JobStore;
  readonly queue: ChunkQueue;
  readonly keys: ApiKeyStore;
  readonly jobSlots: JobSlots;
}

export async function createServiceRuntime(config: ServiceConfig): Promise<ServiceRuntime> {
  const scorers = createScorerRegistry(await loadScorers(config.models, config.threads));
  const lexical = createBm25Scorer({ id: 'bm25' });
  const hybrids = new Map<string, Scorer>();
  const hybridOf = (model: Scorer): Scorer => {
    // A model that is already lexical or hybrid is its own hybrid.
    if (model.candidateRelative || isLexicalOrHybrid(model)) return model;
    let hybrid = hybrids.get(model.id);
    if (!hybrid) hybrids.set(model.id, (hybrid = createDefaultHybridScorer({ id: `${model.id}+bm25`, model, lexical })));
    return hybrid;
  };
  const { store, queue, keys, rateLimiter, jobSlots } = createBackendAdapters(config);
  const defaults = {
    ...(config.rateLimitPerMinute === undefined ? {} : { rateLimitPerMinute: config.rateLimitPerMinute }),
    ...(config.maxConcurrentJobs === undefined ? {} : { maxConcurrentJobs: config.maxConcurrentJobs }),
  };
  return {
    config,
    scorers,
    service: new RerankService({
      catalog: scorers,
      hybridOf,
      upstreamScorer: (upstream) => createUpstreamScorer(upstream, config.upstreamAllowedHosts),
    }),
    jobs: new JobCoordinator({
      store,
      queue,
      jobTtlSeconds: config.jobs.ttlSeconds,
      maxMessageBytes: config.jobs.maxMessageBytes,
      onJobEnded: (job) => jobSlots.release(job.ownerKeyId),
      fuserFor: (modelId) => {
        const scorer = scorers.ids().includes(modelId) ? scorers.get(modelId) : undefined;
        return scorer && isSplittableHybrid(scorer) ? scorer.fuse : undefined;
      },
    }),
    auth: new RequestAuthenticator({
      operatorKeys: new BearerAuth(config.apiKeys),
      clientKeys: new ApiKeyAuthenticator({ store: new CachedApiKeyStore(keys), rateLimiter, defaults }),
      store: keys,
      // Fail closed on AWS; locally, no keys anywhere means auth is off.
      openWhenNoKeys: config.jobs.backend === 'memory',
    }),
    store,
    queue,
    keys,
    jobSlots,
  };
}

let processRuntime: Promise<ServiceRuntime> | undefined;

/** The per-process runtime (one per Lambda container), built on first use; a failed build is retried next time. */
export function serviceRuntime(): Promise<ServiceRuntime> {
  const current =
    processRuntime ??
    createServiceRuntime(loadServiceConfig()).catch((error: unknown) => {
      processRuntime = undefined;
      throw error;
    });
  processRuntime = current;
  return current;
}
