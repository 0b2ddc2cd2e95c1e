import { ApiKeyAuthenticator } from '../../shared/auth/api-key-authenticator.js';
import { BearerAuth } from '../../shared/auth/bearer-auth.js';
import { RequestAuthenticator } from '../../shared/auth/request-authenticator.js';
import { InMemoryApiKeyStore } from '../../shared/adapters/memory/in-memory-api-key-store.js';
import { InMemoryBatchStore } from '../../shared/adapters/memory/in-memory-batch-store.js';
import { InMemoryJobStore } from '../../shared/adapters/memory/in-memory-job-store.js';
import { InProcessChunkQueue } from '../../shared/adapters/in-process/in-process-chunk-queue.js';
import type { BatchEngine } from '../../shared/batches/batch-engine.js';
import { DEFAULT_BATCH_LIMITS, type BatchLimits } from '../../shared/batches/batch-limits.js';
import type { BatchTask } from '../../shared/batches/batch-model.js';
import type { BatchTaskQueue } from '../../shared/batches/batch-task-queue.js';
import { RerankService } from '../../shared/core/rerank-service.js';
import type { Scorer } from '../../shared/core/scorer.js';
import { createScorerRegistry } from '../../shared/core/scorer-registry.js';
import { ApiApp } from '../../shared/http/api-app.js';
import { BatchesApi } from '../../shared/http/batches/batches-api.js';
import { FilesApi } from '../../shared/http/files/files-api.js';
import { FilesService } from '../../shared/files/files-service.js';
import { DEFAULT_FILE_LIMITS } from '../../shared/files/file-limits.js';
import { createBatchEngine } from '../../shared/http/batches/create-batch-engine.js';
import { JobCoordinator } from '../../shared/jobs/job-coordinator.js';
import { InMemoryFileStore } from './in-memory-file-store.js';
import { candidateSetFusionOf } from '../../shared/runtime/candidate-set-fusion-of.js';
import { fuserOf } from '../../shared/runtime/service-runtime.js';

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

export interface BatchTestRuntime {
  readonly app: ApiApp;
  readonly engine: BatchEngine;
  readonly files: InMemoryFileStore;
  readonly store: InMemoryBatchStore;
  readonly queue: ManualBatchQueue;
  /** The engine's clock, epoch ms; tests move it. */
  readonly clock: { nowMs: number };
}

/** ApiApp with `/v1/batches` and `/v1/files` over in-memory ports, operator keys `key-a` and `key-b`, and a hand-driven task queue. */
export function batchTestRuntime(scorers: readonly Scorer[], limits: Partial<BatchLimits> = {}): BatchTestRuntime {
  const registry = createScorerRegistry(scorers);
  const service = new RerankService({ catalog: registry });
  const files = new InMemoryFileStore();
  const store = new InMemoryBatchStore();
  const queue = new ManualBatchQueue();
  const clock = { nowMs: Date.UTC(2026, 0, 1) };
  const requestLimits = { maxBodyBytes: 1 << 20, maxDocuments: 100, maxBatchSize: 10, maxQueryChars: 1000, maxDocumentChars: 1000 };
  const plan = { syncMaxDocuments: 100, syncMaxChars: 1 << 20, defaultBatchSize: 2 };
  const engine = createBatchEngine({
    store,
    files,
    queue,
    scorerFor: (id) => registry.get(id),
    fuserFor: (id) => fuserOf(registry, id),
    setFusionFor: (id) => candidateSetFusionOf(registry, id),
    limits: { ...DEFAULT_BATCH_LIMITS, chunkCost: 40, ...limits },
    nowMs: () => clock.nowMs,
    service,
    plan,
    requestLimits,
  });
  queue.engine = engine;
  const auth = new RequestAuthenticator({
    operatorKeys: new BearerAuth(['key-a', 'key-b']),
    clientKeys: new ApiKeyAuthenticator({ store: new InMemoryApiKeyStore() }),
    openAccess: { isOpen: () => false, description: 'auth: API key required' },
  });
  const jobs = new JobCoordinator({
    store: new InMemoryJobStore(),
    queue: new InProcessChunkQueue({ concurrency: 1, batchSize: 1, maxReceiveCount: 1, retryDelayMs: 1 }),
    jobTtlSeconds: 60,
    maxMessageBytes: 1 << 20,
  });
  const app = new ApiApp({
    service,
    jobs,
    auth,
    limits: requestLimits,
    plan,
    jobOptions: { waitMs: 10 },
    modelIds: registry.ids(),
    batches: new BatchesApi(engine),
    files: new FilesApi(new FilesService(files, DEFAULT_FILE_LIMITS)),
  });
  return { app, engine, files, store, queue, clock };
}
