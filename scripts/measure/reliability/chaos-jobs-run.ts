import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { SQSClient, SendMessageCommand } from '@aws-sdk/client-sqs';
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { performance } from 'node:perf_hooks';
import { isDeepStrictEqual } from 'node:util';
import { DynamoDbBatchStore } from '../../../shared/adapters/dynamodb/dynamodb-batch-store.js';
import { DynamoDbJobStore } from '../../../shared/adapters/dynamodb/dynamodb-job-store.js';
import { createChunkQueues } from '../../emulators/create-chunk-queues.js';
import { SqsTaskQueue } from '../../../shared/adapters/sqs/sqs-task-queue.js';
import type { JobTask } from '../../../shared/jobs/job-model.js';
import { startSqsPoller, type SqsPoller } from '../../emulators/sqs-poller.js';
import type { RerankRequest } from '../../../shared/core/rerank-request.js';
import { defaultActivation } from '../../../shared/core/score-activation.js';
import { localLambdaContext } from '../../../shared/http/node-http-adapter.js';
import { deadLetteredChunk } from '../../../shared/engine/dead-lettered-chunk.js';
import { JobCoordinator } from '../../../shared/jobs/job-coordinator.js';
import type { ServiceRuntime } from '../../../shared/runtime/service-runtime.js';
import { localAwsConfig } from '../../emulators/local-aws-config.js';
import { queueCounts } from '../../emulators/queue-counts.js';
import { StalledError, waitForProgress } from '../../support/wait-for-progress.js';
import type { LocalAwsStack } from '../../emulators/local-aws-stack.js';
import { hashSeed, seededRandom } from '../../eval/seeded-random.js';
import { chaosRecordHandler, poisonQuery, poisonedChunk, type WorkerFaultRates } from './chaos-worker.js';
import { DELIVERY_HOLD_SECONDS } from './delivery-hold.js';
import { FaultCounts } from './fault-counts.js';
import { injectSdkFaults, type SdkFaultRates } from './sdk-fault-injector.js';

export interface ChaosRunOptions {
  readonly seed: number;
  readonly jobs: number;
  /** Documents per job, drawn uniformly from [min, max]. */
  readonly documents: readonly [number, number];
  readonly batchSizes: readonly number[];
  /** Every n-th job (the 1st, the n+1-th, ...) has one chunk that throws on every delivery; 0 = none. */
  readonly poisonEvery: number;
  readonly sdk: SdkFaultRates;
  readonly sdkPlacement: 'inside-retry' | 'outside-retry';
  /** The SDK clients' maxAttempts (undefined = the SDK default of 3). */
  readonly sdkMaxAttempts?: number;
  readonly worker: WorkerFaultRates;
  /** Worker crashes happen on deliveries up to this receive count (see ChaosWorkerDeps.faultyReceives). */
  readonly faultyReceives: number;
  /** Independent pollers on the chunk queue, each with `pollerConcurrency` receive loops. */
  readonly pollers: number;
  readonly pollerConcurrency: number;
  readonly maxReceiveCount: number;
  readonly visibilityTimeoutSeconds: number;
  /** The settle gives up once nothing moved (jobs ended, chunks done, deliveries, faults) for this long. */
  readonly stallTimeoutMs: number;
}

export type JobEnd = 'succeeded' | 'failed' | 'running' | 'missing';

export interface JobVerdict {
  readonly id: string;
  readonly documents: number;
  readonly chunks: number;
  readonly poisonedChunk: number | undefined;
  readonly end: JobEnd;
  readonly error: string | undefined;
  /** Submit to first seen ended, in ms (poll granularity 100 ms). */
  readonly latencyMs: number | undefined;
  /** Why this job breaks the invariant; undefined = it holds. */
  readonly violation: string | undefined;
}

export interface ChaosRunReport {
  readonly verdicts: readonly JobVerdict[];
  /** Submissions that threw: never accepted, so outside the invariant; `leftRunning` counts those whose job exists running. */
  readonly submitErrors: readonly { readonly message: string; readonly leftRunning: boolean }[];
  readonly faults: FaultCounts;
  /** First submit to last job ended. */
  readonly wallMs: number;
  readonly violations: readonly string[];
}

const WORDS =
  'neural network gradient ranking search query lambda queue python library panda bamboo transformer attention http retry'.split(' ');

function chaosRequest(random: () => number, i: number, options: ChaosRunOptions): { request: RerankRequest; batchSize: number } {
  const [min, max] = options.documents;
  const n = min + Math.floor(random() * (max - min + 1));
  const batchSize = options.batchSizes[Math.floor(random() * options.batchSizes.length)] ?? 10;
  const documents = Array.from({ length: n }, (_, d) => ({
    text: Array.from({ length: 4 + Math.floor(random() * 30) }, () => WORDS[Math.floor(random() * WORDS.length)]).join(' ') + ` #${d}`,
  }));
  let query = `job ${i}: how do neural networks learn to rank search results`;
  const chunk = Math.floor(random() * Math.ceil(n / batchSize));
  if (options.poisonEvery > 0 && i % options.poisonEvery === 0) query = poisonQuery(query, chunk);
  const shape = random();
  const request: RerankRequest = {
    model: undefined,
    query,
    documents,
    topN: shape < 0.3 ? 1 + Math.floor(random() * n) : undefined,
    returnDocuments: shape > 0.7,
    threshold: shape > 0.85 ? 0.5 : undefined,
    batchSize,
    activation: random() < 0.2 ? 'none' : undefined,
    prompt: undefined,
  };
  return { request, batchSize };
}

const percentile = (xs: readonly number[], p: number): number => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? Number.NaN;
};
export { percentile };

/** `N visible, M in flight, K delayed`: SQS's approximate counts, read on the emulator's clean client. */
async function queueDepth(stack: LocalAwsStack, queueUrl: string): Promise<string> {
  const { visible, inFlight, delayed } = await queueCounts(stack.sqs, queueUrl);
  return `${visible} visible, ${inFlight} in flight, ${delayed} delayed`;
}

/**
 * Runs many jobs through the real async path (JobCoordinator, DynamoDbJobStore, SqsTaskQueue, scoreChunkTask,
 * the dead-letter reason) on the local AWS stack, with SDK and worker faults injected, then checks every job:
 * succeeded with exactly the synchronous result, or failed with a reason (poisoned jobs only); never lost or stuck.
 * `runtime` (built on clean clients against the same stack) scores the synchronous references and reads the truth.
 */
export async function runChaosJobs(stack: LocalAwsStack, runtime: ServiceRuntime, options: ChaosRunOptions): Promise<ChaosRunReport> {
  const random = seededRandom(options.seed);
  const faultRandom = seededRandom(hashSeed('faults', options.seed));
  const counts = new FaultCounts();
  const runId = `chaos-${options.seed}-${Date.now().toString(36)}`;
  const queues = await createChunkQueues(stack.sqs, runId, {
    maxReceiveCount: options.maxReceiveCount,
    visibilityTimeoutSeconds: options.visibilityTimeoutSeconds,
  });

  const clientConfig = (endpoint: string | undefined) => ({
    ...localAwsConfig(endpoint as string),
    ...(options.sdkMaxAttempts === undefined ? {} : { maxAttempts: options.sdkMaxAttempts }),
  });
  const dynamodb = new DynamoDBClient(clientConfig(stack.env['AWS_ENDPOINT_URL_DYNAMODB']));
  const sqs = new SQSClient(clientConfig(stack.env['AWS_ENDPOINT_URL_SQS']));
  for (const client of [dynamodb, sqs])
    injectSdkFaults(client, { rates: options.sdk, random: faultRandom, counts, placement: options.sdkPlacement });

  let nextJob = 0;
  const store = new DynamoDbJobStore(stack.tableName, dynamodb);
  const chunks = new DynamoDbBatchStore(dynamodb, stack.tableName);
  const jobs = new JobCoordinator({
    store,
    chunks,
    queue: new SqsTaskQueue<JobTask>(sqs, queues.queueUrl, 'chunk', { maxMessageBytes: runtime.config.jobs.maxMessageBytes }),
    jobTtlSeconds: runtime.config.jobs.ttlSeconds,
    maxMessageBytes: runtime.config.jobs.maxMessageBytes,
    // submit() draws its id synchronously, so the n-th call gets the n-th id.
    newId: () => `${runId}-${nextJob++}`,
  });

  const recordHandler = chaosRecordHandler({
    scorers: runtime.scorers,
    jobs,
    chunks,
    resend: async (body) => void (await stack.sqs.send(new SendMessageCommand({ QueueUrl: queues.queueUrl, MessageBody: body }))),
    rates: options.worker,
    random: faultRandom,
    counts,
    faultyReceives: options.faultyReceives,
  });
  // Deliveries count as progress: a crashed chunk moves again when its visibility timeout lapses, before any job does.
  let deliveries = 0;
  const onError = (error: unknown) => counts.add(`poller: error reported by the loop (${(error as Error).name})`);
  const pollers: SqsPoller[] = Array.from({ length: options.pollers }, () =>
    startSqsPoller({
      client: sqs,
      queueUrl: queues.queueUrl,
      batchSize: 5,
      waitTimeSeconds: 1,
      concurrency: options.pollerConcurrency,
      retryDelaySeconds: 0,
      holdSeconds: DELIVERY_HOLD_SECONDS,
      onError,
      // One processor per invocation, as one Lambda container handles one batch at a time.
      handler: (event: SQSEvent) => {
        deliveries += event.Records.length;
        return processPartialResponse(event, recordHandler, new BatchProcessor(EventType.SQS), {
          context: localLambdaContext('chaos-worker'),
        });
      },
    }),
  );
  // The dead-letter handler's logic (functions/workers/chunk-dead-letter.ts) on the faulty coordinator.
  pollers.push(
    startSqsPoller({
      client: sqs,
      queueUrl: queues.dlqUrl,
      batchSize: 10,
      waitTimeSeconds: 1,
      retryDelaySeconds: 0,
      holdSeconds: DELIVERY_HOLD_SECONDS,
      onError,
      handler: async (event: SQSEvent): Promise<SQSBatchResponse> => {
        const batchItemFailures: SQSBatchResponse['batchItemFailures'] = [];
        for (const record of event.Records) {
          const failure = deadLetteredChunk(record.body);
          counts.add('dead-letter: chunk moved to the DLQ');
          if (!failure) continue;
          try {
            await jobs.fail(failure.jobId, failure.reason);
          } catch {
            batchItemFailures.push({ itemIdentifier: record.messageId });
          }
        }
        return { batchItemFailures };
      },
    }),
  );

  const planned = Array.from({ length: options.jobs }, (_, i) => chaosRequest(random, i, options));
  const started = performance.now();
  const submitted = await Promise.all(
    planned.map(async ({ request, batchSize }) => {
      const scorer = runtime.service.resolveScorer(request.model);
      const submission = jobs.submit({
        request,
        dialect: 'openai',
        ownerKeyId: 'chaos',
        model: scorer.id,
        activation: request.activation ?? defaultActivation(scorer),
        batchSize,
      });
      const id = `${runId}-${nextJob - 1}`;
      const at = performance.now();
      try {
        return { id, at, request, record: await submission, error: undefined };
      } catch (error) {
        return { id, at, request, record: undefined, error: error as Error };
      }
    }),
  );

  // Settle: poll the truth (clean clients) until no accepted job runs, or nothing has moved for stallTimeoutMs - a
  // loaded machine is slow, not lossy, so the wait is on progress, never on a total sized for an idle one.
  const ended = new Map<string, number>();
  const accepted = submitted.filter((s) => s.record !== undefined);
  let stalled: string | undefined;
  try {
    await waitForProgress(
      async () => {
        let chunksDone = 0;
        await Promise.all(
          accepted
            .filter((s) => !ended.has(s.id))
            .map(async (s) => {
              const job = await runtime.jobs.find(s.id, 'chaos');
              if (job?.status !== 'running') ended.set(s.id, performance.now() - s.at);
              else chunksDone += job.chunksDone;
            }),
        );
        const progress = `${ended.size}/${accepted.length} jobs ended, ${chunksDone} chunks done in the others, ${deliveries} deliveries, ${counts.total()} faults`;
        return { done: ended.size === accepted.length, progress, value: undefined };
      },
      { stallMs: options.stallTimeoutMs, what: 'chaos jobs' },
    );
  } catch (error) {
    if (!(error instanceof StalledError)) throw error;
    // What the queues still hold tells a stuck job (its chunk lost) from a slow one (its chunk still in flight).
    stalled = `${error.message}; chunk queue ${await queueDepth(stack, queues.queueUrl)}, dead-letter queue ${await queueDepth(stack, queues.dlqUrl)}`;
  }
  const wallMs = performance.now() - started;
  await Promise.all(pollers.map((p) => p.stop()));

  const verdicts: JobVerdict[] = [];
  for (const s of accepted) {
    const job = await runtime.jobs.find(s.id, 'chaos');
    const poisoned = poisonedChunk(s.request.query);
    const end: JobEnd = job === undefined ? 'missing' : job.status;
    let violation: string | undefined;
    if (end === 'missing') violation = 'lost: the job is gone';
    else if (end === 'running')
      violation = `stuck: still running with ${job?.chunksDone}/${job?.chunkCount} chunks done (${stalled ?? 'settled'})`;
    else if (end === 'failed' && poisoned === undefined) violation = `failed without a poison chunk: ${job?.error}`;
    else if (end === 'failed' && !job?.error) violation = 'failed without a reason';
    else if (end === 'succeeded' && poisoned !== undefined) violation = `succeeded although chunk ${poisoned} is poison`;
    else if (end === 'succeeded' && job) {
      const [outcome, sync] = [await runtime.jobs.outcome(job), await runtime.service.rerank(s.request)];
      if (!isDeepStrictEqual(outcome?.results, sync.results)) violation = 'succeeded with results that differ from the synchronous result';
      else if (outcome?.usage.totalTokens !== sync.usage.totalTokens)
        violation = `usage ${outcome?.usage.totalTokens} != ${sync.usage.totalTokens}`;
    }
    verdicts.push({
      id: s.id,
      documents: s.request.documents.length,
      chunks: job?.chunkCount ?? 0,
      poisonedChunk: poisoned,
      end,
      error: job?.error,
      latencyMs: ended.get(s.id),
      violation,
    });
  }
  const submitErrors = await Promise.all(
    submitted
      .filter((s) => s.error !== undefined)
      .map(async (s) => ({ message: s.error?.message ?? '', leftRunning: (await runtime.store.get(s.id))?.status === 'running' })),
  );
  dynamodb.destroy();
  sqs.destroy();
  return {
    verdicts,
    submitErrors,
    faults: counts,
    wallMs,
    violations: verdicts.filter((v) => v.violation !== undefined).map((v) => `${v.id}: ${v.violation}`),
  };
}
