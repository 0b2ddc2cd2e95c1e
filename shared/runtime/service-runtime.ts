import type { JobTask } from '../jobs/job-model.js';
import { ApiKeyAuthenticator } from '../auth/api-key-authenticator.js';
import type { ApiKeyStore } from '../auth/api-key-store.js';
import { CachedApiKeyStore } from '../auth/cached-api-key-store.js';
import type { QuotaLedger } from '../quota/quota-ledger.js';
import { RequestAuthenticator } from '../auth/request-authenticator.js';
import type { BackendAdapters } from './backend.js';
import { createBackend } from './create-backend.js';
import type { ServiceConfig } from '../config/service-config.js';
import { RerankService } from '../core/rerank-service.js';
import { BearerAuth } from '../auth/bearer-auth.js';
import { decideOpenAccess } from './decide-open-access.js';
import type { ChunkQueue } from '../jobs/chunk-queue.js';
import type { JobCoordinator } from '../jobs/job-coordinator.js';
import type { ChunkFuser } from '../engine/rank-chunk-scores.js';
import type { JobStore } from '../jobs/job-store.js';
import { createDefaultHybridScorer, isLexicalOrHybrid } from '../scoring/hybrid/index.js';
import { createBm25Scorer } from '../scoring/lexical/index.js';
import { isSplittableScorer, type Scorer } from '../core/scorer.js';
import { createUpstreamScorer } from '../scoring/upstream/upstream-scorer.js';
import { traced } from '../observability/tracer.js';
import { createJobCoordinator } from './job-coordinator-runtime.js';
import { aliasedScorerCatalog } from './aliased-scorer-catalog.js';
import { loadScorers } from './load-scorers.js';
import { createScorerRegistry, type ScorerRegistry } from '../core/scorer-registry.js';
import type { BatchRuntime } from './batch-runtime.js';
import type { InProcessTaskQueue } from '../adapters/in-process/in-process-task-queue.js';
import type { FileStore } from '../files/file-store.js';
import type { UploadStore } from '../files/upload-store.js';

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
  /** Each key's quota ledger (running jobs and batches, files, bytes, uploads). */
  readonly quota: QuotaLedger;
  /** Batches' store and task queue (absent where the backend has none yet). */
  readonly batches: BatchRuntime | undefined;
  /** Uploaded files, batch inputs and outputs (absent until a FileStore adapter is configured). */
  readonly files?: FileStore;
  /** Pending uploads of `/v1/uploads` (absent = those routes answer 404). */
  readonly uploads?: UploadStore;
  /** `npm start`'s in-process chunk queue, which the starter attaches the worker handlers to (absent on AWS). */
  readonly localChunkQueue?: InProcessTaskQueue<JobTask>;
}

/**
 * What a caller may put in place of the parts the configuration would build: tests hand in their fake scorers
 * and the in-memory ports they inspect; everything else is wired exactly as production wires it.
 */
export interface RuntimeOverrides {
  /** Scorers already built, instead of loading `config.models`. */
  readonly scorers?: readonly Scorer[];
  /** Storage ports to use instead of the backend's. */
  readonly adapters?: Partial<BackendAdapters>;
  /** `null`: no batches, files or uploads (their routes answer 404). */
  readonly batches?: BatchRuntime | null;
}

/** Builds a serving process, whichever it is: the API function, the workers, `npm start` and the tests' runtimes. */
export async function createServiceRuntime(config: ServiceConfig, overrides: RuntimeOverrides = {}): Promise<ServiceRuntime> {
  const scorers = overrides.scorers ?? (await loadScorers(config.models, config.threads));
  return assembleServiceRuntime(config, scorers, overrides);
}

/** The wiring itself, once the scorers exist (synchronous, so a test builds a runtime in one call). */
export function assembleServiceRuntime(
  config: ServiceConfig,
  scorerList: readonly Scorer[],
  overrides: RuntimeOverrides = {},
): ServiceRuntime {
  const scorers = createScorerRegistry(scorerList);
  const lexical = createBm25Scorer({ id: 'bm25' });
  const hybrids = new Map<string, Scorer>();
  const hybridOf = (model: Scorer): Scorer => {
    // A model that is already lexical or hybrid is its own hybrid.
    if (model.candidateRelative || isLexicalOrHybrid(model)) return model;
    let hybrid = hybrids.get(model.id);
    if (!hybrid) hybrids.set(model.id, (hybrid = createDefaultHybridScorer({ id: `${model.id}+bm25`, model, lexical })));
    return hybrid;
  };
  const backend = createBackend(config);
  const { store, chunks, queue, keys, rateLimiter, quota } = { ...backend, ...overrides.adapters };
  const batches = overrides.batches === undefined ? backend.batches : (overrides.batches ?? undefined);
  // The local queue is the one to attach handlers to only while it is the queue jobs are sent to.
  const localChunkQueue = queue === backend.localChunkQueue ? backend.localChunkQueue : undefined;
  const defaults = {
    ...(config.rateLimitPerMinute === undefined ? {} : { rateLimitPerMinute: config.rateLimitPerMinute }),
    ...(config.maxConcurrentJobs === undefined ? {} : { maxConcurrentJobs: config.maxConcurrentJobs }),
  };
  return {
    config,
    scorers,
    service: new RerankService({
      catalog: aliasedScorerCatalog(scorers, config.modelAliases, { strict: config.strictModelNames }),
      hybridOf,
      upstreamScorer: (upstream) => createUpstreamScorer(upstream, config.upstreamAllowedHosts),
      trace: traced,
    }),
    jobs: createJobCoordinator(config, { store, chunks, queue, quota }, (modelId) => fuserOf(scorers, modelId)),
    auth: new RequestAuthenticator({
      operatorKeys: new BearerAuth(config.apiKeys),
      // The local key file is read on every lookup, so a revocation bites at once; DynamoDB lookups are cached.
      clientKeys: new ApiKeyAuthenticator({
        store: config.jobs.backend === 'aws' ? new CachedApiKeyStore(keys) : keys,
        rateLimiter,
        defaults,
      }),
      openAccess: decideOpenAccess({
        setting: config.auth,
        backend: config.jobs.backend,
        hasOperatorKeys: config.apiKeys.length > 0,
        keysFile: config.keysFile,
      }),
    }),
    store,
    queue,
    keys,
    quota,
    batches,
    ...(batches?.files ? { files: batches.files } : {}),
    ...(batches?.uploads ? { uploads: batches.uploads } : {}),
    ...(localChunkQueue ? { localChunkQueue } : {}),
  };
}

/** The fusion step of a served splittable hybrid model; undefined for any other id. */
export function fuserOf(scorers: ScorerRegistry, modelId: string): ChunkFuser | undefined {
  const scorer = scorers.ids().includes(modelId) ? scorers.get(modelId) : undefined;
  return scorer && isSplittableScorer(scorer) ? scorer.fuse : undefined;
}
