import { ApiKeyAuthenticator } from '../../shared/auth/api-key-authenticator.js';
import { BearerAuth } from '../../shared/auth/bearer-auth.js';
import { RequestAuthenticator } from '../../shared/auth/request-authenticator.js';
import { InProcessChunkQueue } from '../../shared/adapters/in-process/in-process-chunk-queue.js';
import { InMemoryApiKeyStore } from '../../shared/adapters/memory/in-memory-api-key-store.js';
import { InMemoryJobSlots } from '../../shared/adapters/memory/in-memory-job-slots.js';
import { InMemoryJobStore } from '../../shared/adapters/memory/in-memory-job-store.js';
import type { PlanLimits } from '../../shared/core/plan-request.js';
import { RerankService } from '../../shared/core/rerank-service.js';
import type { Scorer } from '../../shared/core/scorer.js';
import { createScorerRegistry, type ScorerRegistry } from '../../shared/core/scorer-registry.js';
import { ApiApp, type ApiAppDeps } from '../../shared/http/api-app.js';
import { JobCoordinator } from '../../shared/jobs/job-coordinator.js';

export interface TestRuntimeOptions {
  /** The served models; the first is the default. */
  readonly scorers: readonly Scorer[];
  /** Operator keys. */
  readonly apiKeys?: readonly string[];
  /** Let callers in without a key (as a local server started with no keys). Default: open unless apiKeys are given. */
  readonly open?: boolean;
  readonly limits?: Partial<ApiAppDeps['limits']>;
  readonly plan?: Partial<PlanLimits>;
  readonly waitMs?: number;
  /** Scoring deadline of synchronous requests; absent = none. */
  readonly syncTimeoutMs?: number;
}

export interface TestRuntime {
  readonly app: ApiApp;
  readonly service: RerankService;
  readonly jobs: JobCoordinator;
  readonly store: InMemoryJobStore;
  /** Not consumed: tests that need workers attach them (queue.consume) or play them by hand. */
  readonly queue: InProcessChunkQueue;
  readonly keys: InMemoryApiKeyStore;
  readonly slots: InMemoryJobSlots;
  readonly scorers: ScorerRegistry;
}

/**
 * An ApiApp over in-memory adapters and the given (usually fake) scorers, wired as the service runtime
 * wires it, for unit tests of the HTTP layer: one call instead of seven collaborators by hand.
 */
export function testRuntime(options: TestRuntimeOptions): TestRuntime {
  const scorers = createScorerRegistry(options.scorers);
  const store = new InMemoryJobStore();
  const queue = new InProcessChunkQueue({ concurrency: 1, batchSize: 1, maxReceiveCount: 2, retryDelayMs: 10 });
  const keys = new InMemoryApiKeyStore();
  const slots = new InMemoryJobSlots();
  const service = new RerankService({ catalog: scorers });
  const jobs = new JobCoordinator({ store, queue, jobTtlSeconds: 60, maxMessageBytes: 1 << 20, slots });
  const open = options.open ?? (options.apiKeys ?? []).length === 0;
  const auth = new RequestAuthenticator({
    operatorKeys: new BearerAuth(options.apiKeys ?? []),
    clientKeys: new ApiKeyAuthenticator({ store: keys }),
    openAccess: { isOpen: () => open, description: open ? 'auth: off (test)' : 'auth: API key required' },
  });
  const app = new ApiApp({
    service,
    jobs,
    auth,
    limits: { maxBodyBytes: 1 << 20, maxDocuments: 100, maxBatchSize: 10, ...options.limits },
    plan: { syncMaxDocuments: 100, syncMaxChars: 1 << 20, defaultBatchSize: 2, ...options.plan },
    jobOptions: { waitMs: options.waitMs ?? 10 },
    ...(options.syncTimeoutMs === undefined ? {} : { syncTimeoutMs: options.syncTimeoutMs }),
    modelIds: scorers.ids(),
  });
  return { app, service, jobs, store, queue, keys, slots, scorers };
}
