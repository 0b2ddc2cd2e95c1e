import { join } from 'node:path';
import type { JobTask } from '../jobs/job-model.js';
import type { BatchTask } from '../batches/batch-model.js';
import { InProcessTaskQueue } from '../adapters/in-process/in-process-task-queue.js';
import { LocalFolderFileStore } from '../adapters/local/local-folder-file-store.js';
import { InMemoryApiKeyStore } from '../adapters/memory/in-memory-api-key-store.js';
import { InMemoryCorpusAnalysisLedger } from '../adapters/memory/in-memory-corpus-analysis-ledger.js';
import { InMemoryBatchStore } from '../adapters/memory/in-memory-batch-store.js';
import { InMemoryChunkLedger } from '../adapters/memory/in-memory-chunk-ledger.js';
import { InMemoryJobStore } from '../adapters/memory/in-memory-job-store.js';
import { InMemoryRateLimiter } from '../adapters/memory/in-memory-rate-limiter.js';
import { InMemoryUploadStore } from '../adapters/memory/in-memory-upload-store.js';
import { InMemoryQuotaLedger } from '../adapters/memory/in-memory-quota-ledger.js';
import { localFolderQuotaSeed } from '../adapters/local/local-folder-quota-seed.js';
import { DEFAULT_BATCH_LIMITS } from '../batches/batch-limits.js';
import type { ServiceConfig } from '../config/service-config.js';
import type { Backend } from './backend.js';
import { batchTaskRunners } from './batch-runtime.js';

/**
 * The `memory` backend (`npm start` on a bare machine): jobs, batches and pending uploads in memory, chunk and batch
 * tasks on in-process queues, files in RERANK_FILES_DIR, keys in the file `npm run keys` writes.
 */
export function localBackend(config: ServiceConfig): Backend {
  const jobs = config.jobs;
  // One queue, two lanes, as the stack has two SQS queues (60 s chunk tasks; batch tasks, whose planning takes longer).
  const delivery = { batchSize: 1, maxReceiveCount: jobs.maxReceiveCount, retryDelayMs: jobs.retryDelayMs };
  const localChunkQueue = new InProcessTaskQueue<JobTask>({ ...delivery, concurrency: jobs.workers, lane: 'chunks' });
  const localQueue = new InProcessTaskQueue<BatchTask>({ ...delivery, concurrency: batchTaskRunners(jobs.workers), lane: 'batches' });
  // One process shares its scorers between the lanes: a job's caller is waiting, a batch's has 24 hours.
  localQueue.yieldsTo(localChunkQueue);
  const files = new LocalFolderFileStore(config.files.dir);
  // One ledger for jobs, batches and files, its file counters seeded from the folder at start.
  const quota = new InMemoryQuotaLedger({ seed: localFolderQuotaSeed(files) });
  return {
    store: new InMemoryJobStore(),
    chunks: new InMemoryChunkLedger(),
    queue: localChunkQueue,
    localChunkQueue,
    // The file `npm run keys` writes; re-read on every lookup, so keys made while the server runs count.
    keys: new InMemoryApiKeyStore({ file: config.keysFile }),
    rateLimiter: new InMemoryRateLimiter(),
    quota,
    batches: {
      // Large result lines wait on disk beside the files, not in the process, until their batch's output is written.
      store: new InMemoryBatchStore({ spill: { dir: join(config.files.dir, 'batch-results') } }),
      queue: localQueue,
      localQueue,
      analysis: new InMemoryCorpusAnalysisLedger(),
      limits: { ...DEFAULT_BATCH_LIMITS, ...config.batches },
      files,
      uploads: new InMemoryUploadStore(),
      // The counters live in memory; the files outlive a restart, so the ledger starts from what the folder holds.
      quota,
    },
  };
}
