import type { InProcessTaskQueue, SqsBatchHandler } from '../adapters/in-process/in-process-task-queue.js';
import { jobIdOf, type EngineTask } from '../engine/engine-task.js';
import { decodeTask } from '../engine/task-codec.js';
import { logger } from '../observability/logger.js';
import { apiLimitsOf } from './api-limits.js';
import { EXPIRY_SWEEP_MS } from './batch-runtime.js';
import { engineTaskHandlers } from './engine-task-handlers.js';
import { runtimeBatchEngine } from './runtime-batch-engine.js';
import type { ServiceRuntime } from './service-runtime.js';

/** A lane's consumers: what the event source mappings of its queue and dead-letter queue call on AWS. */
export interface LaneHandlers {
  readonly worker: SqsBatchHandler;
  readonly deadLetter: SqsBatchHandler;
}

/** What a stop left undone: work held only in this process's memory, lost with it. */
export interface UnfinishedWork {
  readonly jobIds: readonly string[];
  readonly batchIds: readonly string[];
}

/** The workers a process started; `stop` is its shutdown path. */
export interface LocalWorkers {
  /**
   * Stops both lanes delivering and the expiry sweep, and resolves once the deliveries in flight have returned (their
   * ONNX runs ended), with the jobs and batches left unfinished.
   */
  stop(): Promise<UnfinishedWork>;
}

/**
 * On `npm start` (the local backend) the process that serves also runs the async engine: the chunk lane delivers to the
 * handlers the chunk functions run (passed in: they live in functions/), the batch lane to the engine's routine, and a
 * timer expires batches past their window and files past their retention. On AWS each is a function of its own (SQS
 * triggers, a schedule, S3's lifecycle rule). A library that builds the HTTP app starts none of this: the process
 * starter does, and keeps the handle.
 */
export function startLocalWorkers(runtime: ServiceRuntime, chunkLane: LaneHandlers): LocalWorkers {
  const lanes: InProcessTaskQueue<EngineTask>[] = [];
  if (runtime.localChunkQueue) {
    runtime.localChunkQueue.attach(chunkLane.worker, chunkLane.deadLetter);
    lanes.push(runtime.localChunkQueue);
  }
  const sweep = startBatchLane(runtime);
  const batchLane = runtime.batches?.localQueue;
  if (batchLane) lanes.push(batchLane);
  return {
    async stop() {
      if (sweep) clearInterval(sweep);
      await Promise.all(lanes.map((lane) => lane.close()));
      return unfinishedWork(runtime, runtime.localChunkQueue?.unfinishedBodies() ?? []);
    },
  };
}

/** Attaches the engine's routine to the batch lane and starts the expiry sweep; undefined where there is no local lane. */
function startBatchLane(runtime: ServiceRuntime): NodeJS.Timeout | undefined {
  const local = runtime.batches?.localQueue;
  const { limits, plan } = apiLimitsOf(runtime.config);
  // Its own engine over the runtime's ports, as the batch worker function has its own beside the API's on AWS.
  const engine = local ? runtimeBatchEngine(runtime, limits, plan) : undefined;
  if (!local || !engine) return undefined;
  const { worker, deadLetter } = engineTaskHandlers({ jobs: async () => runtime, batches: async () => engine });
  local.attach(worker, deadLetter);
  const sweep = setInterval(() => {
    engine.expireDue().catch((error: unknown) => logger.error('batch expiry sweep failed', { error: error as Error }));
    runtime.files?.deleteExpired?.().catch((error: unknown) => logger.error('file expiry sweep failed', { error: error as Error }));
  }, EXPIRY_SWEEP_MS);
  sweep.unref();
  return sweep;
}

/** A stop names what it can: a body no codec reads is left out of the line rather than failing the stop. */
function decodeQuietly(body: string): EngineTask | undefined {
  try {
    return decodeTask(body);
  } catch {
    return undefined;
  }
}

/** Jobs named by the chunk lane's unfinished tasks; batches the store holds as not yet ended. */
async function unfinishedWork(runtime: ServiceRuntime, chunkBodies: readonly string[]): Promise<UnfinishedWork> {
  const jobIds = new Set<string>();
  for (const body of chunkBodies) {
    // Read through the one codec: the wire form names its owner, and a message in an older form still names its job.
    const task = decodeQuietly(body);
    const jobId = task && jobIdOf(task);
    if (jobId !== undefined) jobIds.add(jobId);
  }
  const batches = (await runtime.batches?.store.listActive()) ?? [];
  return { jobIds: [...jobIds], batchIds: batches.map((batch) => batch.id) };
}

/** Ids listed by name in the stop line; past this many, a count. */
const LISTED_IDS = 20;

const listed = (one: string, many: string, ids: readonly string[]): string => {
  const names = ids.slice(0, LISTED_IDS).join(', ');
  const more = ids.length > LISTED_IDS ? ` and ${ids.length - LISTED_IDS} more` : '';
  return `${ids.length} ${ids.length === 1 ? one : many} (${names}${more})`;
};

/** What a stop abandoned, in one line for the person who stopped the server; undefined when nothing was left. */
export function unfinishedWorkLine(work: UnfinishedWork): string | undefined {
  const named = [
    ...(work.jobIds.length > 0 ? [listed('job', 'jobs', work.jobIds)] : []),
    ...(work.batchIds.length > 0 ? [listed('batch', 'batches', work.batchIds)] : []),
  ];
  if (named.length === 0) return undefined;
  return `abandoned, unfinished: ${named.join(' and ')}; npm start keeps jobs, batches and queues in memory only, so they are lost`;
}
