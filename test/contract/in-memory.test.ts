import { InProcessChunkQueue } from '../../shared/adapters/in-process/in-process-chunk-queue.js';
import { InMemoryJobStore } from '../../shared/adapters/memory/in-memory-job-store.js';
import { describeChunkQueueContract } from './chunk-queue.contract.js';
import { describeJobStoreContract } from './job-store.contract.js';

describeJobStoreContract('in-memory', () => new InMemoryJobStore());

describeChunkQueueContract('in-process', async () => {
  const maxReceiveCount = 2;
  const queue = new InProcessChunkQueue({ concurrency: 2, batchSize: 10, maxReceiveCount, retryDelayMs: 10 });
  return {
    queue,
    maxReceiveCount,
    consume: (handler) => queue.consume(handler),
    consumeDeadLetters: (handler) => queue.consumeDeadLetters(handler),
    dispose: () => queue.idle(),
  };
});
