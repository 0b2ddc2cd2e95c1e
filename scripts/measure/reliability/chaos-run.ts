import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { S3Client } from '@aws-sdk/client-s3';
import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { performance } from 'node:perf_hooks';
import { deadLetterEngineTaskWith, perRecord, runEngineTaskWith, type EngineOwners } from '../../../shared/runtime/engine-task-handlers.js';
import { createChunkQueues } from '../../emulators/create-chunk-queues.js';
import type { LocalAwsStack } from '../../emulators/local-aws-stack.js';
import { localAwsConfig } from '../../emulators/local-aws-config.js';
import { startSqsPoller, type SqsPoller } from '../../emulators/sqs-poller.js';
import { hashSeed, seededRandom } from '../../eval/seeded-random.js';
import { StalledError, waitForProgress } from '../../support/wait-for-progress.js';
import { DELIVERY_HOLD_SECONDS, RunningDeliveries } from './delivery-hold.js';
import { FaultCounts } from './fault-counts.js';
import { injectSdkFaults, type SdkFaultRates } from './sdk-fault-injector.js';
import { taskInfo, type TaskInfo } from './task-kind.js';

/** Per delivery of a task of that kind, on deliveries up to `faultyReceives`: the worker dies before or after running it. */
export interface TaskCrashRates {
  readonly planBefore: number;
  readonly planAfter: number;
  readonly chunkBefore: number;
  readonly chunkAfter: number;
  /** A job's finish (its merge). */
  readonly finishBefore?: number;
  readonly finishAfter?: number;
  readonly finalizeBefore: number;
  readonly finalizeAfter: number;
  /** The task's message is sent to the queue once more (an independent second delivery). */
  readonly redeliver: number;
}

export const NO_TASK_CRASHES: TaskCrashRates = {
  planBefore: 0,
  planAfter: 0,
  chunkBefore: 0,
  chunkAfter: 0,
  finalizeBefore: 0,
  finalizeAfter: 0,
  redeliver: 0,
};

/** The faults and the delivery setup of one chaos run, whatever lanes it drives. */
export interface ChaosFaultOptions {
  readonly seed: number;
  readonly sdk: SdkFaultRates;
  /** Where the SDK faults are raised (see SdkFaultOptions.placement); absent = inside-retry. */
  readonly sdkPlacement?: 'inside-retry' | 'outside-retry';
  /** The SDK clients' maxAttempts (absent = the SDK default of 3). */
  readonly sdkMaxAttempts?: number;
  readonly crashes: TaskCrashRates;
  /** Worker crashes happen on deliveries up to this receive count, so a healthy task always has clean ones left. */
  readonly faultyReceives: number;
  readonly pollers: number;
  readonly pollerConcurrency: number;
  /** Messages a receive takes (run one after another); absent = 5. The expiry case takes 1, so a held line holds no other. */
  readonly receiveBatchSize?: number;
  readonly maxReceiveCount: number;
  readonly visibilityTimeoutSeconds: number;
  /** The settle gives up once nothing moved for this long (a loaded machine is slow, not lossy). */
  readonly stallTimeoutMs: number;
  /** Told the progress whenever it moves (a long run shows it is alive). */
  readonly onProgress?: (progress: string) => void;
}

/** What a lane is built on: the SDK clients with faults, the one task queue both lanes share, the run's counters. */
export interface ChaosEnv {
  readonly stack: LocalAwsStack;
  readonly dynamodb: DynamoDBClient;
  readonly sqs: SQSClient;
  readonly s3: S3Client;
  readonly queueUrl: string;
  readonly counts: FaultCounts;
  readonly runId: string;
}

/** One lane's work in a run: who runs its tasks, which deliveries must fail, how to submit and when it is done. */
export interface ChaosLaneRun {
  readonly owners: Partial<EngineOwners>;
  /** A delivery that throws on every attempt (a poison task); counted, never run. */
  poisoned?(info: TaskInfo): boolean;
  start(): Promise<void>;
  progress(): Promise<{ readonly done: boolean; readonly progress: string }>;
  /** Called once the pollers stopped (a lane's own schedule ends here). */
  stopped?(): void;
}

export interface ChaosRunResult {
  readonly faults: FaultCounts;
  readonly deliveries: number;
  readonly wallMs: number;
  readonly stalled: string | undefined;
}

const noBatches = async (): Promise<never> => {
  throw new Error('a batch task in a run without the batch lane');
};

/**
 * One run on the emulators: a task queue and its DLQ, DynamoDB/SQS/S3 clients with the fault injector, and SQS pollers
 * running the engine's worker routine (runEngineTaskWith) with crashes around each task and its dead-letter path
 * (deadLetterEngineTaskWith) on the DLQ; the lanes submit their work and the run settles when every lane is done.
 */
export async function runChaos(
  stack: LocalAwsStack,
  options: ChaosFaultOptions,
  name: string,
  buildLanes: (env: ChaosEnv) => Promise<readonly ChaosLaneRun[]>,
): Promise<ChaosRunResult> {
  const random = seededRandom(hashSeed(`chaos-${name}`, options.seed));
  const counts = new FaultCounts();
  const runId = `chaos-${name}-${options.seed}-${Date.now().toString(36)}`;
  const queues = await createChunkQueues(stack.sqs, runId, {
    maxReceiveCount: options.maxReceiveCount,
    visibilityTimeoutSeconds: options.visibilityTimeoutSeconds,
  });
  const config = (endpoint: string | undefined) => ({
    ...localAwsConfig(endpoint as string),
    ...(options.sdkMaxAttempts === undefined ? {} : { maxAttempts: options.sdkMaxAttempts }),
  });
  const dynamodb = new DynamoDBClient(config(stack.env['AWS_ENDPOINT_URL_DYNAMODB']));
  const sqs = new SQSClient(config(stack.env['AWS_ENDPOINT_URL_SQS']));
  const s3 = new S3Client({ ...config(stack.env['AWS_ENDPOINT_URL_S3']), forcePathStyle: true });
  const placement = options.sdkPlacement ?? 'inside-retry';
  for (const client of [dynamodb, sqs, s3]) injectSdkFaults(client, { rates: options.sdk, random, counts, placement });
  const env: ChaosEnv = { stack, dynamodb, sqs, s3, queueUrl: queues.queueUrl, counts, runId };
  try {
    const lanes = await buildLanes(env);
    const owners: EngineOwners = Object.assign({ batches: noBatches }, ...lanes.map((l) => l.owners)) as EngineOwners;
    const deliveries = { count: 0 };
    const pollers = startPollers(env, options, queues.dlqUrl, owners, lanes, random, deliveries);
    const started = performance.now();
    let stalled: string | undefined;
    try {
      await Promise.all(lanes.map((l) => l.start()));
      await settle(lanes, options, deliveries, name);
    } catch (error) {
      if (!(error instanceof StalledError)) throw error;
      stalled = error.message;
    }
    const wallMs = performance.now() - started;
    await Promise.all(pollers.map((p) => p.stop()));
    for (const lane of lanes) lane.stopped?.();
    return { faults: counts, deliveries: deliveries.count, wallMs, stalled };
  } finally {
    dynamodb.destroy();
    sqs.destroy();
    s3.destroy();
  }
}

async function settle(lanes: readonly ChaosLaneRun[], options: ChaosFaultOptions, deliveries: { count: number }, name: string) {
  let last = '';
  await waitForProgress(
    async () => {
      const states = await Promise.all(lanes.map((l) => l.progress()));
      const progress = `${states.map((s) => s.progress).join('; ')}; ${deliveries.count} deliveries`;
      if (progress !== last) options.onProgress?.(`${name}: ${progress}`);
      last = progress;
      return { done: states.every((s) => s.done), progress, value: undefined };
    },
    { stallMs: options.stallTimeoutMs, pollMs: 200, what: `chaos run (${name})` },
  );
}

class InjectedCrash extends Error {
  override readonly name = 'InjectedCrash';
}

/** The worker pollers (the routine with crashes around each task) and the dead-letter poller. */
function startPollers(
  env: ChaosEnv,
  options: ChaosFaultOptions,
  dlqUrl: string,
  owners: EngineOwners,
  lanes: readonly ChaosLaneRun[],
  random: () => number,
  deliveries: { count: number },
): SqsPoller[] {
  const { counts, sqs } = env;
  const running = new RunningDeliveries(counts);
  const crash = crashPoint(options.crashes);
  const runRecord = async (body: string, receiveCount: number, messageId: string): Promise<void> => {
    const info = taskInfo(body);
    counts.add(receiveCount > 1 ? 'observed: redelivery (receive count > 1)' : 'observed: first delivery');
    if (info && lanes.some((l) => l.poisoned?.(info))) {
      counts.add(`worker: poison ${info.kind} delivery (throws)`);
      throw new InjectedCrash(`poison ${info.kind} task`);
    }
    const faulty = info !== undefined && receiveCount <= options.faultyReceives;
    const label = info && `${info.lane === 'jobs' ? 'job' : 'batch'} ${info.kind}`;
    if (faulty && random() < options.crashes.redeliver) {
      counts.add('worker: task sent once more (second delivery)');
      await env.stack.sqs.send(new SendMessageCommand({ QueueUrl: env.queueUrl, MessageBody: body }));
    }
    if (faulty && random() < crash(info.kind, 'Before')) {
      counts.add(`crash: ${label} task, before it ran`);
      throw new InjectedCrash(`${label} crashed before running`);
    }
    try {
      await runEngineTaskWith(body, owners, messageId);
    } catch (error) {
      // What made a task fail is what a dead-lettered task is diagnosed by: counted per kind and error.
      counts.add(`worker: ${label ?? 'unknown'} task failed (${(error as Error).name}: ${String((error as Error).message).slice(0, 80)})`);
      throw error;
    }
    if (faulty && random() < crash(info.kind, 'After')) {
      counts.add(`crash: ${label} task, after it ran (before the delete)`);
      throw new InjectedCrash(`${label} crashed after running`);
    }
  };
  const onError = (error: unknown) => counts.add(`poller: error reported by the loop (${(error as Error).name})`);
  const common = { client: sqs, waitTimeSeconds: 1, retryDelaySeconds: 0, holdSeconds: DELIVERY_HOLD_SECONDS, onError };
  const workers = Array.from({ length: options.pollers }, () =>
    startSqsPoller({
      ...common,
      queueUrl: env.queueUrl,
      batchSize: options.receiveBatchSize ?? 5,
      concurrency: options.pollerConcurrency,
      handler: perRecord(async (record) => {
        deliveries.count++;
        const receiveCount = Number(record.attributes.ApproximateReceiveCount);
        await running.track(record.messageId, () => runRecord(record.body, receiveCount, record.messageId));
      }),
    }),
  );
  const deadLetters = startSqsPoller({
    ...common,
    queueUrl: dlqUrl,
    batchSize: 10,
    handler: perRecord(async (record) => {
      counts.add('dead-letter: task moved to the DLQ');
      await deadLetterEngineTaskWith(record.body, record.messageId, owners);
    }),
  });
  return [...workers, deadLetters];
}

function crashPoint(rates: TaskCrashRates): (kind: TaskInfo['kind'], when: 'Before' | 'After') => number {
  return (kind, when) => (rates as unknown as Record<string, number | undefined>)[`${kind}${when}`] ?? 0;
}
