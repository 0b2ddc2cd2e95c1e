import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { SQSClient } from '@aws-sdk/client-sqs';
import { DynamoDbJobStore } from '../adapters/dynamodb/dynamodb-job-store.js';
import { InProcessChunkQueue } from '../adapters/in-process/in-process-chunk-queue.js';
import { InMemoryJobStore } from '../adapters/memory/in-memory-job-store.js';
import { SqsChunkQueue } from '../adapters/sqs/sqs-chunk-queue.js';
import { loadServiceConfig, type ServiceConfig } from '../config/service-config.js';
import { RerankService } from '../core/rerank-service.js';
import { BearerAuth } from '../http/bearer-auth.js';
import type { ChunkQueue } from '../jobs/chunk-queue.js';
import { JobCoordinator } from '../jobs/job-coordinator.js';
import type { JobStore } from '../jobs/job-store.js';
import { createHybridScorer, isSplittableHybrid } from '../scoring/hybrid/index.js';
import { createBm25Scorer } from '../scoring/lexical/index.js';
import type { Scorer } from '../scoring/scorer.js';
import { createUpstreamScorer } from '../scoring/upstream/upstream-scorer.js';
import { loadScorers } from './load-scorers.js';
import { createScorerRegistry, type ScorerRegistry } from '../scoring/scorer-registry.js';

/** Everything a process serves with, built once: the API function, the workers and `npm start` share it. */
export interface ServiceRuntime {
  readonly config: ServiceConfig;
  readonly scorers: ScorerRegistry;
  readonly service: RerankService;
  readonly jobs: JobCoordinator;
  readonly auth: BearerAuth;
  readonly store: JobStore;
  readonly queue: ChunkQueue;
}

function jobAdapters(config: ServiceConfig): { store: JobStore; queue: ChunkQueue } {
  const jobs = config.jobs;
  if (jobs.backend === 'aws') {
    // Endpoints come from the SDK's own settings (AWS_ENDPOINT_URL_SQS / _DYNAMODB point them at emulators).
    return {
      store: new DynamoDbJobStore(jobs.tableName as string, new DynamoDBClient({})),
      queue: new SqsChunkQueue(new SQSClient({}), jobs.queueUrl as string, { maxMessageBytes: jobs.maxMessageBytes }),
    };
  }
  return {
    store: new InMemoryJobStore(),
    queue: new InProcessChunkQueue({
      concurrency: jobs.workers,
      batchSize: 1,
      maxReceiveCount: jobs.maxReceiveCount,
      retryDelayMs: jobs.retryDelayMs,
    }),
  };
}

export async function createServiceRuntime(config: ServiceConfig): Promise<ServiceRuntime> {
  const scorers = createScorerRegistry(await loadScorers(config.models, config.threads));
  const lexical = createBm25Scorer({ id: 'bm25' });
  const hybrids = new Map<string, Scorer>();
  const hybridOf = (model: Scorer): Scorer => {
    // A model that is already lexical or hybrid is its own hybrid.
    if (model.candidateRelative) return model;
    let hybrid = hybrids.get(model.id);
    if (!hybrid) hybrids.set(model.id, (hybrid = createHybridScorer({ id: `${model.id}+bm25`, model, lexical })));
    return hybrid;
  };
  const { store, queue } = jobAdapters(config);
  return {
    config,
    scorers,
    service: new RerankService({
      catalog: scorers,
      hybridOf,
      upstreamScorer: (upstream) => createUpstreamScorer(upstream, config.upstreamAllowedHosts),
    }),
    jobs: new JobCoordinator({
      store,
      queue,
      jobTtlSeconds: config.jobs.ttlSeconds,
      maxMessageBytes: config.jobs.maxMessageBytes,
      fuserFor: (modelId) => {
        const scorer = scorers.ids().includes(modelId) ? scorers.get(modelId) : undefined;
        return scorer && isSplittableHybrid(scorer) ? scorer.fuse : undefined;
      },
    }),
    auth: new BearerAuth(config.apiKeys),
    store,
    queue,
  };
}

let processRuntime: Promise<ServiceRuntime> | undefined;

/** The per-process runtime (one per Lambda container), built on first use; a failed build is retried next time. */
export function serviceRuntime(): Promise<ServiceRuntime> {
  const current =
    processRuntime ??
    createServiceRuntime(loadServiceConfig()).catch((error: unknown) => {
      processRuntime = undefined;
      throw error;
    });
  processRuntime = current;
  return current;
}
