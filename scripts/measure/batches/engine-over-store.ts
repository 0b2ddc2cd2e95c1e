import type { BatchTask } from '../../../shared/batches/batch-model.js';
import { InProcessTaskQueue } from '../../../shared/adapters/in-process/in-process-task-queue.js';
import { InMemoryBatchStore } from '../../../shared/adapters/memory/in-memory-batch-store.js';
import type { BatchEngine } from '../../../shared/batches/batch-engine.js';
import { DEFAULT_BATCH_LIMITS } from '../../../shared/batches/batch-limits.js';
import { RerankService } from '../../../shared/core/rerank-service.js';
import type { Scorer } from '../../../shared/core/scorer.js';
import { createScorerRegistry } from '../../../shared/core/scorer-registry.js';
import type { FileStore } from '../../../shared/files/file-store.js';
import type { RequestLimits } from '../../../shared/core/validate-request.js';
import { createBatchEngine } from '../../../shared/runtime/create-batch-engine.js';
import { batchTaskRunners } from '../../../shared/runtime/batch-runtime.js';
import { engineTaskHandlers } from '../../../shared/runtime/engine-task-handlers.js';

/** The engine's runners, as the runtime sets them (batchTaskRunners): reading a range overlaps another chunk's scoring. */
const RUNNERS = batchTaskRunners(Number(process.env['RERANK_LOCAL_WORKERS'] ?? 2));

export interface EngineOverStoreOptions {
  /** The queue the engine sends to and its handlers are attached to (default: the runtime's runners, 100 ms retries). */
  readonly queue?: InProcessTaskQueue<BatchTask>;
  /** Documents per chunk of an inline line (default 64, the service's default batch_size). */
  readonly defaultBatchSize?: number;
  readonly requestLimits?: RequestLimits;
}

/** The benches' batch engine: in-process queue and memory store over the given files, as `npm start` wires it. */
export function engineOverStore(scorers: readonly Scorer[], files: FileStore, options: EngineOverStoreOptions = {}): BatchEngine {
  const registry = createScorerRegistry(scorers);
  const queue =
    options.queue ?? new InProcessTaskQueue<BatchTask>({ concurrency: RUNNERS, batchSize: 1, maxReceiveCount: 3, retryDelayMs: 100 });
  const engine = createBatchEngine({
    store: new InMemoryBatchStore(),
    files,
    queue,
    scorerFor: (id) => registry.get(id),
    limits: DEFAULT_BATCH_LIMITS,
    service: new RerankService({ catalog: registry }),
    plan: { syncMaxDocuments: 256, syncMaxChars: 2_000_000, defaultBatchSize: options.defaultBatchSize ?? 64 },
    requestLimits: options.requestLimits ?? { maxDocuments: 10_000, maxBatchSize: 1_000, maxQueryChars: 8_192, maxDocumentChars: 65_536 },
  });
  const { worker, deadLetter } = engineTaskHandlers({ batches: async () => engine });
  queue.attach(worker, deadLetter);
  return engine;
}
