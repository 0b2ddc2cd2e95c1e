import type { JobTask } from '../../shared/jobs/job-model.js';
import { InProcessTaskQueue } from '../../shared/adapters/in-process/in-process-task-queue.js';
import { InMemoryApiKeyStore } from '../../shared/adapters/memory/in-memory-api-key-store.js';
import { InMemoryQuotaLedger } from '../../shared/adapters/memory/in-memory-quota-ledger.js';
import { InMemoryJobStore } from '../../shared/adapters/memory/in-memory-job-store.js';
import { InMemoryRateLimiter } from '../../shared/adapters/memory/in-memory-rate-limiter.js';
import { loadServiceConfig, type ServiceConfig } from '../../shared/config/service-config.js';
import type { PlanLimits } from '../../shared/core/plan-request.js';
import type { RerankService } from '../../shared/core/rerank-service.js';
import type { Scorer } from '../../shared/core/scorer.js';
import type { ScorerRegistry } from '../../shared/core/scorer-registry.js';
import type { ApiApp, ApiAppDeps } from '../../shared/http/api-app.js';
import { createApiApp } from '../../shared/http/create-api-app.js';
import type { JobCoordinator } from '../../shared/jobs/job-coordinator.js';
import { assembleServiceRuntime } from '../../shared/runtime/service-runtime.js';

export interface TestRuntimeOptions {
  /** The served models; the first is the default. */
  readonly scorers: readonly Scorer[];
  /** Operator keys. */
  readonly apiKeys?: readonly string[];
  /** Let callers in without a key (as a local server started with no keys). Default: open unless apiKeys are given. */
  readonly open?: boolean;
  readonly limits?: Partial<ApiAppDeps['limits']>;
  readonly plan?: Partial<Omit<PlanLimits, 'syncBudgetSeconds'>>;
  readonly waitMs?: number;
  /** Scoring deadline of synchronous requests; absent = one far past any test. */
  readonly syncTimeoutMs?: number;
}

export interface TestRuntime {
  readonly app: ApiApp;
  readonly service: RerankService;
  readonly jobs: JobCoordinator;
  readonly store: InMemoryJobStore;
  /** Not consumed: tests that need workers attach them (queue.consume) or play them by hand. */
  readonly queue: InProcessTaskQueue<JobTask>;
  readonly keys: InMemoryApiKeyStore;
  /** The keys' quota ledger (running jobs among its counters). */
  readonly quota: InMemoryQuotaLedger;
  readonly scorers: ScorerRegistry;
}

/** The configuration npm start would read with no settings, then the test's small limits on top. */
export function testConfig(options: TestRuntimeOptions): ServiceConfig {
  const open = options.open ?? (options.apiKeys ?? []).length === 0;
  const base = loadServiceConfig({ RERANK_JOBS_BACKEND: 'memory', RERANK_AUTH: open ? 'off' : 'on', RERANK_API_KEYS: (options.apiKeys ?? []).join(',') });
  const { maxBodyBytes = 1 << 20, maxDocuments = 100, maxBatchSize = 10, ...otherLimits } = options.limits ?? {};
  const { syncMaxDocuments = 100, syncMaxChars = 1 << 20, defaultBatchSize = 2 } = options.plan ?? {};
  return {
    ...base,
    // What /info lists: the test's scorers stand where model folders would be.
    models: options.scorers.map((scorer) => ({ id: scorer.id, kind: 'folder' as const, folder: '(a scorer built by the test)' })),
    maxBodyBytes,
    maxDocuments,
    maxBatchSize,
    ...otherLimits,
    syncTimeoutMs: options.syncTimeoutMs ?? 3_600_000,
    jobs: { ...base.jobs, syncMaxDocuments, syncMaxChars, defaultBatchSize, waitMs: options.waitMs ?? 10, ttlSeconds: 60, maxMessageBytes: 1 << 20 },
  };
}

/**
 * The service runtime production builds (assembleServiceRuntime) and the API production serves (createApiApp), over
 * in-memory ports the test can inspect and the given (usually fake) scorers: the wiring under test is the real one.
 */
export function testRuntime(options: TestRuntimeOptions): TestRuntime {
  const store = new InMemoryJobStore();
  const queue = new InProcessTaskQueue<JobTask>({ concurrency: 1, batchSize: 1, maxReceiveCount: 2, retryDelayMs: 10 });
  const keys = new InMemoryApiKeyStore();
  const quota = new InMemoryQuotaLedger();
  const runtime = assembleServiceRuntime(testConfig(options), options.scorers, {
    adapters: { store, queue, keys, quota, rateLimiter: new InMemoryRateLimiter() },
    batches: null,
  });
  return { app: createApiApp(runtime), service: runtime.service, jobs: runtime.jobs, store, queue, keys, quota, scorers: runtime.scorers };
}
