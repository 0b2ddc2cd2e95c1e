import type { JobTask } from '../../shared/jobs/job-model.js';
import { InProcessTaskQueue } from '../../shared/adapters/in-process/in-process-task-queue.js';
import { InMemoryApiKeyStore } from '../../shared/adapters/memory/in-memory-api-key-store.js';
import { InMemoryBatchStore } from '../../shared/adapters/memory/in-memory-batch-store.js';
import { InMemoryQuotaLedger } from '../../shared/adapters/memory/in-memory-quota-ledger.js';
import type { QuotaLedger } from '../../shared/quota/quota-ledger.js';
import { InMemoryJobStore } from '../../shared/adapters/memory/in-memory-job-store.js';
import { InMemoryRateLimiter } from '../../shared/adapters/memory/in-memory-rate-limiter.js';
import type { BatchEngine } from '../../shared/batches/batch-engine.js';
import { DEFAULT_BATCH_LIMITS, type BatchLimits } from '../../shared/batches/batch-limits.js';
import type { CorpusAnalysisLedger } from '../../shared/batches/corpus-analysis-ledger.js';
import { InMemoryCorpusAnalysisLedger } from '../../shared/adapters/memory/in-memory-corpus-analysis-ledger.js';
import type { BatchTask } from '../../shared/batches/batch-model.js';
import type { BatchTaskQueue } from '../../shared/batches/batch-task-queue.js';
import { loadServiceConfig, type ServiceConfig } from '../../shared/config/service-config.js';
import type { PlanLimits } from '../../shared/core/plan-request.js';
import type { RerankService } from '../../shared/core/rerank-service.js';
import type { Scorer } from '../../shared/core/scorer.js';
import type { ScorerRegistry } from '../../shared/core/scorer-registry.js';
import type { ApiApp, ApiAppDeps } from '../../shared/http/api-app.js';
import { createApiApp } from '../../shared/http/create-api-app.js';
import type { JobCoordinator } from '../../shared/jobs/job-coordinator.js';
import { apiLimitsOf } from '../../shared/runtime/api-limits.js';
import { runtimeBatchEngine } from '../../shared/runtime/runtime-batch-engine.js';
import { assembleServiceRuntime } from '../../shared/runtime/service-runtime.js';
import { InMemoryFileStore } from './in-memory-file-store.js';

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
  /** The batch lane (`/v1/batches`, `/v1/files`, uploads); absent = none (those routes answer 404). */
  readonly batches?: BatchLaneOptions;
  /** The keys' quota ledger (DynamoDB Local's in an integration test); absent = one in memory, as npm start has. */
  readonly quota?: QuotaLedger;
  /** Hosts an upstream rerank API may be called on (RERANK_UPSTREAM_ALLOWED_HOSTS); absent = none. */
  readonly upstreamAllowedHosts?: readonly string[];
}

export interface BatchLaneOptions {
  readonly limits?: Partial<BatchLimits>;
  /** The files of an earlier runtime: a restart of the service over the same stored files. */
  readonly files?: InMemoryFileStore;
  readonly maxStoredBytesPerKey?: number;
  /** Where corpus analyses are followed; absent = an in-memory one (a test may wrap it to see each write). */
  readonly analysis?: CorpusAnalysisLedger;
}

/** A queue the test drives task by task: what runs, and when, is the test's choice. */
export class ManualBatchQueue implements BatchTaskQueue {
  readonly tasks: BatchTask[] = [];
  engine: BatchEngine | undefined;

  async send(tasks: readonly BatchTask[]): Promise<void> {
    this.tasks.push(...tasks);
  }

  /** Runs queued tasks (and those they queue) matching `which` until none is left. */
  async run(which: (task: BatchTask) => boolean = () => true): Promise<number> {
    let ran = 0;
    for (let at = this.tasks.findIndex(which); at >= 0; at = this.tasks.findIndex(which)) {
      const [task] = this.tasks.splice(at, 1);
      await (this.engine as BatchEngine).handle(task as BatchTask);
      ran++;
    }
    return ran;
  }
}

/** The batch lane of a test runtime: the worker's engine over the ports the API's engine uses too. */
export interface BatchLane {
  /** The batch worker's engine (the API builds its own over the same ports, as the two functions do on AWS). */
  readonly engine: BatchEngine;
  readonly files: InMemoryFileStore;
  readonly store: InMemoryBatchStore;
  readonly queue: ManualBatchQueue;
  readonly analysis: CorpusAnalysisLedger;
  /** The engine's clock, epoch ms; tests move it. */
  readonly clock: { nowMs: number };
}

export interface TestRuntime {
  readonly app: ApiApp;
  readonly service: RerankService;
  readonly jobs: JobCoordinator;
  readonly store: InMemoryJobStore;
  /** Not consumed: tests that need workers attach them (queue.consume) or play them by hand. */
  readonly queue: InProcessTaskQueue<JobTask>;
  readonly keys: InMemoryApiKeyStore;
  /** The keys' quota ledger the jobs, the batches and the Files API share (running work, files, bytes). */
  readonly quota: QuotaLedger;
  readonly scorers: ScorerRegistry;
  /** Present when the options asked for the batch lane. */
  readonly batches: BatchLane | undefined;
}

/** The configuration npm start would read with no settings, then the test's small limits on top. */
export function testConfig(options: TestRuntimeOptions): ServiceConfig {
  const open = options.open ?? (options.apiKeys ?? []).length === 0;
  const base = loadServiceConfig({
    RERANK_JOBS_BACKEND: 'memory',
    RERANK_AUTH: open ? 'off' : 'on',
    RERANK_API_KEYS: (options.apiKeys ?? []).join(','),
  });
  const { maxBodyBytes = 1 << 20, maxDocuments = 100, maxBatchSize = 10, ...otherLimits } = options.limits ?? {};
  const { syncMaxDocuments = 100, syncMaxChars = 1 << 20, defaultBatchSize = 2 } = options.plan ?? {};
  const storage = options.batches?.maxStoredBytesPerKey === undefined ? {} : { maxStoredBytesPerKey: options.batches.maxStoredBytesPerKey };
  return {
    ...base,
    // What /info lists: the test's scorers stand where model folders would be.
    models: options.scorers.map((scorer) => ({ id: scorer.id, kind: 'folder' as const, folder: '(a scorer built by the test)' })),
    maxBodyBytes,
    maxDocuments,
    maxBatchSize,
    ...otherLimits,
    syncTimeoutMs: options.syncTimeoutMs ?? 3_600_000,
    jobs: {
      ...base.jobs,
      syncMaxDocuments,
      syncMaxChars,
      defaultBatchSize,
      waitMs: options.waitMs ?? 10,
      ttlSeconds: 60,
      maxMessageBytes: 1 << 20,
    },
    files: { ...base.files, ...storage },
    ...(options.upstreamAllowedHosts ? { upstreamAllowedHosts: options.upstreamAllowedHosts } : {}),
  };
}

/**
 * THE test runtime, both lanes of the async engine: the service runtime production builds (assembleServiceRuntime)
 * and the API production serves (createApiApp), over in-memory ports the test can inspect and the given (usually
 * fake) scorers - the wiring under test is the real one. Jobs run on an in-process queue the test consumes or plays;
 * batches (when asked for) on a queue the test drives task by task, with a clock it moves.
 */
export function testRuntime(options: TestRuntimeOptions): TestRuntime {
  const store = new InMemoryJobStore();
  const queue = new InProcessTaskQueue<JobTask>({ concurrency: 1, batchSize: 1, maxReceiveCount: 2, retryDelayMs: 10 });
  const keys = new InMemoryApiKeyStore();
  // One ledger for the jobs, the Files API and the batch engines, as the backends give one.
  const quota = options.quota ?? new InMemoryQuotaLedger();
  const config = testConfig(options);
  const lane = options.batches && batchLanePorts(options.batches);
  const runtime = assembleServiceRuntime(config, options.scorers, {
    adapters: { store, queue, keys, quota, rateLimiter: new InMemoryRateLimiter() },
    batches: lane
      ? {
          store: lane.store,
          queue: lane.queue,
          analysis: lane.analysis,
          files: lane.files,
          quota,
          limits: { ...DEFAULT_BATCH_LIMITS, chunkCost: 40, ...options.batches?.limits },
          nowMs: () => lane.clock.nowMs,
        }
      : null,
  });
  let batches: BatchLane | undefined;
  if (lane) {
    const { limits: requestLimits, plan } = apiLimitsOf(config);
    const engine = runtimeBatchEngine(runtime, requestLimits, plan) as BatchEngine;
    lane.queue.engine = engine;
    batches = { ...lane, engine };
  }
  return {
    app: createApiApp(runtime),
    service: runtime.service,
    jobs: runtime.jobs,
    store,
    queue,
    keys,
    quota,
    scorers: runtime.scorers,
    batches,
  };
}

function batchLanePorts(options: BatchLaneOptions): Omit<BatchLane, 'engine'> {
  const clock = { nowMs: Date.UTC(2026, 0, 1) };
  const files = options.files ?? new InMemoryFileStore({ now: () => Math.floor(clock.nowMs / 1000) });
  const analysis = options.analysis ?? new InMemoryCorpusAnalysisLedger();
  return { files, store: new InMemoryBatchStore(), queue: new ManualBatchQueue(), analysis, clock };
}
