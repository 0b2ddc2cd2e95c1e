import { SENDS_IN_FLIGHT as PLANNER_SENDS_IN_FLIGHT } from '../../../shared/adapters/sqs/sqs-task-queue.js';
import { DEFAULT_BATCH_LIMITS } from '../../../shared/batches/batch-limits.js';
import { PLAN_WRITES as PLAN_WRITES_IN_FLIGHT } from '../../../shared/batches/plan-round.js';
import { LIMITS, PRICES, SERVICE } from './aws-limits.js';

/** What `npm run bench:batch:aws` measured per AWS call on the emulators (bench/batch-aws-report.md), per chunk. */
export interface BatchCallProfile {
  /** Every call's time per chunk, the planner's sends and the create's object writes left out (they are modeled apart). */
  readonly workerCallSecondsPerChunk: number;
  /** One SendMessageBatch (10 tasks), median. */
  readonly sendSeconds: number;
  /** One PutItem (a request plan), median. */
  readonly putSeconds: number;
  /** One Query page, median (the merge reads a request's chunk scores page by page). */
  readonly querySeconds: number;
  /** Writes and reads per chunk (DynamoDB request units; a transaction item counts twice). */
  readonly writeUnitsPerChunk: number;
  readonly readUnitsPerChunk: number;
  /** S3 GETs per chunk (a byte-range read of the line or the corpus). */
  readonly s3GetsPerChunk: number;
}

export interface BatchScenario {
  /** Request lines in the input file. */
  readonly requests: number;
  readonly documentsPerRequest: number;
  /** The documents come from an uploaded corpus (documents_file_id) the planner scans, not inline in the line. */
  readonly corpus: boolean;
  readonly concurrency: number;
  readonly memoryMb: number;
  readonly pairsPerSecond: number;
  readonly coldStartSeconds: number;
  readonly calls: BatchCallProfile;
  /** Ignore the SQS ramp, DynamoDB and account limits (to compare with the emulator run). */
  readonly unlimited?: boolean;
}

export interface BatchPrediction {
  readonly wallSeconds: number;
  readonly chunks: number;
  readonly peakConcurrency: number;
  readonly cost: {
    readonly compute: number;
    readonly requests: number;
    readonly queue: number;
    readonly store: number;
    readonly files: number;
    readonly total: number;
  };
  readonly binding: string[];
}

/**
 * The planner's own settings, read from its code so the model cannot drift: SendMessageBatch calls in flight
 * (SqsTaskQueue) of 10 tasks each, plans written at once (PLAN_WRITES), and the tasks of one round, which ends in
 * a checkpoint (limits.planFlushTasks).
 */
const TASKS_PER_SEND = 10;
const SEND_EVERY_TASKS = DEFAULT_BATCH_LIMITS.planFlushTasks;
/** S3 read rate of one Lambda scanning a corpus file (a single GET stream; AWS quotes ~80-90 MB/s per connection). */
const CORPUS_SCAN_BYTES_PER_SECOND = 80e6;
/** S3 GET and PUT list prices per request (us-east-1 Standard). */
const S3_GET = 0.0004 / 1000;
const S3_PUT = 0.005 / 1000;
/**
 * Batch items spread over 16 partitions by line, and a request's chunk scores and counters over up to 16 more by
 * counter (batch-table-keys.ts: BATCH_SHARDS, one counter per CHUNKS_PER_COUNTER chunks).
 */
const { ledgerShards: BATCH_SHARDS, chunksPerCounter: CHUNKS_PER_COUNTER, wcuPerChunk: WCU_PER_CHUNK_ON_SHARD } = SERVICE;
/** Bytes of one output line per returned result (index, score, JSON) and of top_n results kept per request. */
const OUTPUT_BYTES_PER_REQUEST = 2_000;
const OUTPUT_BYTES_PER_SECOND = 50e6;

/**
 * Wall time and dollars of a batch on AWS, as a flow in small time steps. The planner (one invocation) streams the
 * input - and a corpus - and sends chunk tasks by reference, so chunks become available at its pace; workers take
 * them at min(concurrency asked, account limit, the SQS ramp) / chunk time, where a chunk's time is its scoring plus
 * the AWS calls the emulator run measured per chunk; the chunk rate is capped by the DynamoDB partition the request's
 * line falls in (all chunks of ONE request write under one shard) and by the table's initial write rate. The last
 * chunk of a request builds its output line (a top-n merge over its chunk scores); the finalizer writes the output file.
 */
export function predictBatch(s: BatchScenario): BatchPrediction {
  const chunksPerRequest = Math.ceil(s.documentsPerRequest / SERVICE.chunkDocuments);
  const chunks = s.requests * chunksPerRequest;
  const chunkSeconds = s.calls.workerCallSecondsPerChunk + SERVICE.chunkDocuments / s.pairsPerSecond;
  // A send of 64 tasks is 7 calls, one round with 16 in flight; a corpus line's thousands of tasks go out in rounds of 160.
  const tasksPerRound = s.corpus
    ? PLANNER_SENDS_IN_FLIGHT * TASKS_PER_SEND
    : Math.min(SEND_EVERY_TASKS, PLANNER_SENDS_IN_FLIGHT * TASKS_PER_SEND);
  const sendPerTask = s.calls.sendSeconds / tasksPerRound + s.calls.putSeconds / SEND_EVERY_TASKS;
  const scanSeconds = s.corpus ? (s.documentsPerRequest * SERVICE.documentBytes) / CORPUS_SCAN_BYTES_PER_SECOND : 0;
  // The planner's time per request line: its plan write, its tasks' share of the sends, a corpus scan.
  const planSecondsPerRequest = s.calls.putSeconds / PLAN_WRITES_IN_FLIGHT + chunksPerRequest * sendPerTask + scanSeconds;
  const planRate = chunksPerRequest / planSecondsPerRequest;
  const concurrencyCap = s.unlimited ? s.concurrency : Math.min(s.concurrency, LIMITS.accountConcurrency);
  const shardsInUse = Math.min(BATCH_SHARDS, s.requests * Math.ceil(chunksPerRequest / CHUNKS_PER_COUNTER));
  const storeCap = s.unlimited
    ? Number.POSITIVE_INFINITY
    : Math.min(
        (shardsInUse * LIMITS.dynamoPartitionWcuPerSecond) / WCU_PER_CHUNK_ON_SHARD,
        LIMITS.dynamoTableInitialWcuPerSecond / WCU_PER_CHUNK_ON_SHARD,
      );

  let t = 0;
  let planned = 0;
  let started = 0;
  let peak = 0;
  const bound = { planner: 0, store: 0, ramp: 0 };
  const dt = Math.max(0.001, Math.min(1, chunkSeconds / 50, (chunks * chunkSeconds) / concurrencyCap / 500));
  while (started < chunks) {
    planned = Math.min(chunks, planned + planRate * dt);
    const ramp = s.unlimited ? Number.POSITIVE_INFINITY : LIMITS.sqsInitialConcurrency + LIMITS.sqsScaleUpPerSecond * t;
    const busy = Math.min(concurrencyCap, ramp, chunks);
    peak = Math.max(peak, busy);
    const workerRate = busy / chunkSeconds;
    const rate = Math.min(workerRate, storeCap);
    const available = planned - started;
    const step = Math.min(rate * dt, available);
    if (available <= rate * dt && planned < chunks) bound.planner += dt;
    else if (workerRate > storeCap) bound.store += dt;
    else if (ramp < concurrencyCap && ramp < chunks - started) bound.ramp += dt;
    started += step;
    t += dt;
  }
  // The last chunk, then its request's merge (chunk score items in 1 MB Query pages) and the output file.
  const mergeSeconds = Math.ceil((chunksPerRequest * (SERVICE.chunkDocuments * 8 + 100)) / 1e6) * s.calls.querySeconds;
  const outputSeconds = (s.requests * OUTPUT_BYTES_PER_REQUEST) / OUTPUT_BYTES_PER_SECOND;
  const wallSeconds = t + chunkSeconds + mergeSeconds + outputSeconds + (s.unlimited ? 0 : s.coldStartSeconds);

  const binding: string[] = [];
  if (bound.planner > 0.1 * t) {
    binding.push(
      s.corpus
        ? `the planner: one invocation scans the ${((s.documentsPerRequest * SERVICE.documentBytes) / 1e6).toFixed(0)} MB corpus and sends ${chunks.toLocaleString('en-US')} tasks (${PLANNER_SENDS_IN_FLIGHT} sends of ${TASKS_PER_SEND} in flight): workers wait for tasks ${Math.round(bound.planner)} s`
        : `the planner: one invocation plans ${Math.round(1 / planSecondsPerRequest)} lines/s (plan writes ${PLAN_WRITES_IN_FLIGHT} at a time, a round of sends per ${SEND_EVERY_TASKS} tasks): workers wait for tasks ${Math.round(bound.planner)} s`,
    );
  }
  if (bound.store > 0.1 * t) {
    binding.push(
      shardsInUse * LIMITS.dynamoPartitionWcuPerSecond < LIMITS.dynamoTableInitialWcuPerSecond
        ? `DynamoDB partitions of the batch (${shardsInUse} in use, ~${Math.round(storeCap)} chunk writes/s): larger batch_size means fewer chunks`
        : `DynamoDB table write rate (4,000 WCU/s for a new on-demand table, ~${Math.round(storeCap)} chunks/s) until on-demand adapts`,
    );
  }
  if (bound.ramp > 0.1 * t)
    binding.push(`SQS scale-up ramp (300 workers/minute) for ${Math.round(bound.ramp)} s: the queue absorbs the backlog`);
  if (!s.unlimited && peak >= LIMITS.accountConcurrency)
    binding.push('account concurrency (1,000 by default, shared with the API function)');

  const gb = s.memoryMb / 1024;
  const gbSecond = PRICES.lambdaGbSecond.arm64;
  const plannerSeconds = s.requests * planSecondsPerRequest;
  const compute = (chunks * chunkSeconds + plannerSeconds + outputSeconds + Math.min(peak, chunks) * s.coldStartSeconds) * gb * gbSecond;
  const requests = (chunks + 2) * PRICES.lambdaRequest;
  // Per chunk: its share of a send, a receive and a delete.
  const queue = chunks * (1 / TASKS_PER_SEND + 2) * PRICES.sqsRequest;
  const store = chunks * (s.calls.writeUnitsPerChunk * PRICES.dynamoWriteUnit + s.calls.readUnitsPerChunk * PRICES.dynamoReadUnit);
  const files = chunks * s.calls.s3GetsPerChunk * S3_GET + Math.ceil((s.requests * OUTPUT_BYTES_PER_REQUEST) / 8e6 + 2) * S3_PUT;
  const total = compute + requests + queue + store + files;
  return { wallSeconds, chunks, peakConcurrency: peak, cost: { compute, requests, queue, store, files, total }, binding };
}
