import type { SqsBatchHandler } from '../adapters/in-process/in-process-task-queue.js';
import { jobIdOf, type EngineTask } from '../engine/engine-task.js';
import { decodeTask } from '../engine/task-codec.js';
import { logger } from '../observability/logger.js';
import { EXPIRY_SWEEP_MS } from './batch-runtime.js';
import type { ServiceRuntime } from './service-runtime.js';

/**
 * What a process starter passes in (the handlers live in functions/): what AWS calls - the one worker on every task
 * queue, the dead-letter consumer on every dead-letter queue, and the schedule's sweep (batches past their window,
 * files past their retention).
 */
export interface EngineHandlers {
  readonly worker: SqsBatchHandler;
  readonly deadLetter: SqsBatchHandler;
  readonly sweep: () => Promise<unknown>;
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
 * On `npm start` (the local backend) the process that serves also runs the async engine: both in-process lanes (a job's
 * tasks, a batch's) deliver to the one worker handler and the one dead-letter handler Lambda runs, and a timer runs the
 * schedule's sweep. On AWS each is a function of its own (SQS triggers, a schedule, S3's lifecycle rule). A library
 * that builds the HTTP app starts none of this: the process starter does, and keeps the handle.
 */
export function startLocalWorkers(runtime: ServiceRuntime, handlers: EngineHandlers): LocalWorkers {
  const lanes = [runtime.localChunkQueue, runtime.batches?.localQueue].filter((lane) => lane !== undefined);
  for (const lane of lanes) lane.attach(handlers.worker, handlers.deadLetter);
  const sweep = startSweep(runtime, handlers.sweep);
  return {
    async stop() {
      if (sweep) clearInterval(sweep);
      await Promise.all(lanes.map((lane) => lane.close()));
      return unfinishedWork(runtime, runtime.localChunkQueue?.unfinishedBodies() ?? []);
    },
  };
}

/** The schedule's sweep, where this process runs batches (they and their files are what it expires). */
function startSweep(runtime: ServiceRuntime, sweep: () => Promise<unknown>): NodeJS.Timeout | undefined {
  if (!runtime.batches?.localQueue || !runtime.files) return undefined;
  const timer = setInterval(() => {
    sweep().catch((error: unknown) => logger.error('expiry sweep failed', { error: error as Error }));
  }, EXPIRY_SWEEP_MS);
  timer.unref();
  return timer;
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
