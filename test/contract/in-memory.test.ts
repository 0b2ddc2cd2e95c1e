import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { EngineTask } from '../../shared/engine/engine-task.js';
import { afterAll } from 'vitest';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InMemoryApiKeyStore } from '../../shared/adapters/memory/in-memory-api-key-store.js';
import { InMemoryRateLimiter } from '../../shared/adapters/memory/in-memory-rate-limiter.js';
import { describeApiKeyStoreContract } from './key-store.contract.js';
import { describeRateLimiterContract } from './rate-limiter.contract.js';
import { InProcessTaskQueue } from '../../shared/adapters/in-process/in-process-task-queue.js';
import { InMemoryJobStore } from '../../shared/adapters/memory/in-memory-job-store.js';
import { describeTaskQueueContract, type TaskQueueHarness } from './task-queue.contract.js';
import type { QueueLane } from './task-queue-lanes.js';
import { describeJobStoreContract } from './job-store.contract.js';
import { InMemoryBatchStore } from '../../shared/adapters/memory/in-memory-batch-store.js';
import { describeBatchStoreContract } from './batch-store.contract.js';
import { InMemoryChunkLedger } from '../../shared/adapters/memory/in-memory-chunk-ledger.js';
import { describeChunkLedgerContract } from './chunk-ledger.contract.js';
import { InMemoryUploadStore } from '../../shared/adapters/memory/in-memory-upload-store.js';
import { describeUploadStoreContract } from './upload-store.contract.js';
import { InMemoryFileStore } from '../support/in-memory-file-store.js';
import { describeFileStoreContract } from './file-store.contract.js';
import { InMemoryQuotaLedger } from '../../shared/adapters/memory/in-memory-quota-ledger.js';
import { describeQuotaLedgerContract } from './quota-ledger.contract.js';

describeJobStoreContract('in-memory', () => new InMemoryJobStore());
describeBatchStoreContract('in-memory', () => new InMemoryBatchStore());
// Every result line on disk (threshold 0), as `npm start` keeps the large ones.
const spillDirs: string[] = [];
describeBatchStoreContract('in-memory, result lines on disk', () => {
  const dir = mkdtempSync(join(tmpdir(), 'rerank-spill-'));
  spillDirs.push(dir);
  return new InMemoryBatchStore({ spill: { dir, aboveBytes: 0 } });
});
afterAll(() => {
  for (const dir of spillDirs) rmSync(dir, { recursive: true, force: true });
});
describeChunkLedgerContract('in-memory', () => new InMemoryChunkLedger());
describeUploadStoreContract('in-memory', () => new InMemoryUploadStore());
describeFileStoreContract('in-memory', (now) => new InMemoryFileStore({ now }));
describeQuotaLedgerContract('in-memory', () => new InMemoryQuotaLedger());

/** A fresh in-process queue for a lane, failed items retried after 10 ms. */
async function inProcessHarness<T extends EngineTask>(lane: QueueLane<T>): Promise<TaskQueueHarness<T>> {
  const maxReceiveCount = 2;
  const queue = new InProcessTaskQueue<T>({ concurrency: 2, batchSize: 10, maxReceiveCount, retryDelayMs: 10, lane: lane.name });
  return {
    queue,
    maxReceiveCount,
    consume: (handler) => queue.consume(handler),
    consumeDeadLetters: (handler) => queue.consumeDeadLetters(handler),
    settled: () => queue.idle(),
    dispose: () => queue.idle(),
  };
}
describeTaskQueueContract('in-process', inProcessHarness);

// Auth ports (issue 7): keys in memory and in a JSON file, rate and job-slot counters in memory.
describeApiKeyStoreContract('in-memory', () => ({ store: new InMemoryApiKeyStore() }), { persists: false });
const keyDirs: string[] = [];
afterAll(() => {
  for (const dir of keyDirs) rmSync(dir, { recursive: true, force: true });
});
describeApiKeyStoreContract('in-memory with a JSON file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'rerank-keys-'));
  keyDirs.push(dir);
  const file = join(dir, '.rerank', 'keys.json');
  return { store: new InMemoryApiKeyStore({ file }), storedText: async () => readFileSync(file, 'utf8') };
});
describeRateLimiterContract('in-memory', () => new InMemoryRateLimiter());
