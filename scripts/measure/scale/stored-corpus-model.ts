import { DEFAULT_BATCH_LIMITS } from '../../../shared/batches/batch-limits.js';
import { groupLinesFor, ledgerScoresOfLine } from '../../../shared/batches/corpus-line-groups.js';
import type { BatchCallProfile } from './batch-simulation.js';
import { LIMITS, PRICES, SERVICE } from './aws-limits.js';
import { median } from '../scoring/bench-stats.js';

/**
 * What `scripts/measure/batches/profile-stored-line.ts` measured over a stored corpus on this machine
 * (bench/stored-corpus-measurements.json): the analysis, one line alone, and a many-line batch, in one process.
 */
export interface StoredCorpusMeasurements {
  readonly date: string;
  readonly machine: string;
  /** Cores the process used (the engine's runners and ONNX threads over all of them). */
  readonly cpus: number;
  readonly load: readonly [number, number];
  readonly documents: number;
  readonly corpusBytes: number;
  /** Stored shards (the corpus plan's chunks under the default limits). */
  readonly shards: number;
  readonly storedBytes: number;
  readonly analysisMs: number;
  readonly oneLineMs: readonly number[];
  readonly lines: number;
  readonly manyLinesMs: number;
  readonly peakRssMb: number;
}

export interface StoredCorpusPrediction {
  readonly tasks: number;
  readonly wallSeconds: number;
  readonly cost: {
    readonly compute: number;
    readonly queue: number;
    readonly store: number;
    readonly files: number;
    readonly total: number;
  };
}

/** S3 list prices per request (us-east-1 Standard) and per GB-month stored. */
const S3_GET = 0.0004 / 1000;
const S3_PUT = 0.005 / 1000;
export const S3_GB_MONTH = 0.023;
/** One shard GET (~1.3 MB at 1M short documents): first byte plus transfer at a single stream's ~80 MB/s. */
const SHARD_GET_SECONDS = (shardBytes: number) => 0.02 + shardBytes / 80e6;
/** A grouped task reads each of its lines' plan and result (is it finished?) before it scores them. */
const READS_PER_LINE_CHUNK = 2;
/** One vCPU per 1,769 MB: the batch worker's size (scoring a span is one thread's matrix products). */
const MEMORY_MB = LIMITS.lambdaMbPerVcpu;

/**
 * Workers at time t are min(concurrency asked, account limit, the SQS ramp of 5 + 300/minute, the tasks): tasks start
 * at the pace the busy workers free up, and the last one started ends one task later (as predictBatch models chunks);
 * plus one cold start (the model load).
 */
function rampedWallSeconds(tasks: number, taskSeconds: number, concurrency: number, coldStartSeconds: number): number {
  const cap = Math.min(concurrency, LIMITS.accountConcurrency, tasks);
  let t = 0;
  let started = 0;
  const dt = Math.max(0.01, Math.min(1, taskSeconds / 50, (tasks * taskSeconds) / cap / 500));
  while (started < tasks) {
    const workers = Math.min(cap, LIMITS.sqsInitialConcurrency + LIMITS.sqsScaleUpPerSecond * t);
    started += (workers / taskSeconds) * dt;
    t += dt;
  }
  return t + coldStartSeconds + taskSeconds;
}

/**
 * The corpus rows of the scale model: a corpus analysed once, fanned out over the batch workers (one task per span of
 * `corpusShardsPerTask` shards), then query lines over it in groups (each task reads its span's shards once for the
 * group and records one ledger item per line). Compute is what the measured run spent per document and per line on
 * this machine's vCPUs (its engine, its store and its scoring together), the AWS calls are the emulator run's per
 * chunk (a line's chunk here is its record for one span), prices are list prices.
 */
export function predictStoredCorpus(
  m: StoredCorpusMeasurements,
  calls: BatchCallProfile,
  scenario: {
    readonly documents: number;
    readonly lines: number;
    readonly concurrency: number;
    readonly coldStartSeconds: number;
    readonly analysis: boolean;
  },
): StoredCorpusPrediction {
  const scale = scenario.documents / m.documents;
  const shards = Math.ceil(m.shards * scale);
  const shardBytes = m.storedBytes / m.shards;
  const spans = Math.ceil(shards / DEFAULT_BATCH_LIMITS.corpusShardsPerTask);
  const gbSecond = (MEMORY_MB / 1024) * PRICES.lambdaGbSecond.x86_64;
  const shardReads = (count: number) => count * SHARD_GET_SECONDS(shardBytes);
  if (scenario.analysis) {
    // Every document encoded once; each shard read from the corpus by range and its analysis PUT beside the file.
    const vcpuSeconds = (m.analysisMs / 1000) * m.cpus * scale;
    const taskSeconds = vcpuSeconds / spans + shardReads(DEFAULT_BATCH_LIMITS.corpusShardsPerTask) * 2;
    const compute = (vcpuSeconds + spans * shardReads(DEFAULT_BATCH_LIMITS.corpusShardsPerTask) * 2) * gbSecond;
    const queue = spans * SERVICE.sqsRequestsPerChunk * PRICES.sqsRequest;
    const store = spans * (calls.writeUnitsPerChunk * PRICES.dynamoWriteUnit + calls.readUnitsPerChunk * PRICES.dynamoReadUnit);
    const files = shards * (S3_GET + S3_PUT);
    return {
      tasks: spans,
      wallSeconds: rampedWallSeconds(spans, taskSeconds, scenario.concurrency, scenario.coldStartSeconds),
      cost: total({ compute, queue, store, files }),
    };
  }
  // Query lines: grouped as the planner groups them (each line keeps its spans' top 10), a task per span per group.
  const groupLines = groupLinesFor(ledgerScoresOfLine(scenario.documents, spans, 10), DEFAULT_BATCH_LIMITS.corpusGroupLines);
  const groups = Math.ceil(scenario.lines / groupLines);
  const tasks = groups * spans;
  // Compute is a pass over the shards per group (reading and decoding them) plus each line's own products, fusion and
  // top-k: solved from the two measured runs, a line alone (one pass, one line) and the many-line batch (its groups'
  // passes, its lines), both in vCPU-seconds on this machine.
  const measuredGroups = Math.ceil(
    m.lines /
      groupLinesFor(
        ledgerScoresOfLine(m.documents, Math.ceil(m.shards / DEFAULT_BATCH_LIMITS.corpusShardsPerTask), 10),
        DEFAULT_BATCH_LIMITS.corpusGroupLines,
      ),
  );
  const alone = (median(m.oneLineMs) / 1000) * m.cpus;
  const many = (m.manyLinesMs / 1000) * m.cpus;
  const perLine = Math.max(0, (many - measuredGroups * alone) / (m.lines - measuredGroups));
  const perPass = Math.max(0, alone - perLine);
  const vcpuSeconds = (groups * perPass + scenario.lines * perLine) * scale;
  const linesPerTask = scenario.lines / groups;
  // Per task: its span's GETs one after another, then each line's record (the emulator run's calls per chunk, 8 at once).
  const callSeconds = shardReads(DEFAULT_BATCH_LIMITS.corpusShardsPerTask) + (linesPerTask * calls.workerCallSecondsPerChunk) / 8;
  const taskSeconds = vcpuSeconds / tasks + callSeconds;
  const compute = (vcpuSeconds + tasks * callSeconds) * gbSecond;
  const queue = tasks * SERVICE.sqsRequestsPerChunk * PRICES.sqsRequest;
  // Per line and span: its scores put and its counter's set-add (SERVICE.wcuPerChunk units), its plan and result read
  // (READS_PER_LINE_CHUNK); per line once: what the emulator run counted for a one-chunk line (plan, hold, result, merge).
  const lineChunks = scenario.lines * spans;
  const store =
    lineChunks * (SERVICE.wcuPerChunk * PRICES.dynamoWriteUnit + READS_PER_LINE_CHUNK * PRICES.dynamoReadUnit) +
    scenario.lines * (calls.writeUnitsPerChunk * PRICES.dynamoWriteUnit + calls.readUnitsPerChunk * PRICES.dynamoReadUnit);
  const files = tasks * Math.min(shards, DEFAULT_BATCH_LIMITS.corpusShardsPerTask) * S3_GET;
  return {
    tasks,
    wallSeconds: rampedWallSeconds(tasks, taskSeconds, scenario.concurrency, scenario.coldStartSeconds),
    cost: total({ compute, queue, store, files }),
  };
}

const total = (c: Omit<StoredCorpusPrediction['cost'], 'total'>): StoredCorpusPrediction['cost'] => ({
  ...c,
  total: c.compute + c.queue + c.store + c.files,
});
