import { InMemoryJobStore } from '../../shared/adapters/memory/in-memory-job-store.js';
import { describeJobStoreContract } from './job-store.contract.js';

// The in-memory ChunkQueue is owned elsewhere; run describeChunkQueueContract on it once it exists.
describeJobStoreContract('in-memory', () => new InMemoryJobStore());
