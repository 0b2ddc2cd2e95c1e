import { LIMITS, PRICES, SERVICE } from './aws-limits.js';

export interface JobScenario {
  readonly documents: number;
  /** Worker Lambda concurrency asked for (the SQS event source's maximum concurrency). */
  readonly concurrency: number;
  readonly memoryMb: number;
  readonly architecture: 'x86_64' | 'arm64';
  /** Pairs/s of one worker of this memory size (lambdaThroughput). */
  readonly pairsPerSecond: number;
  /** Queue + store + merge time per chunk, measured by `npm run bench:jobs`. */
  readonly overheadPerChunkSeconds: number;
  /** Init of a fresh worker (runtime import + model load), measured by `npm run bench`. */
  readonly coldStartSeconds: number;
  readonly chunkDocuments?: number;
  readonly documentBytes?: number;
  /** Ignore the SQS ramp, DynamoDB and account limits (to compare with the local jobs bench). */
  readonly unlimited?: boolean;
}

export interface JobPrediction {
  readonly wallSeconds: number;
  readonly jobs: number;
  readonly chunks: number;
  /** Concurrency actually reached (after the account limit and the SQS ramp). */
  readonly peakConcurrency: number;
  readonly cost: {
    readonly compute: number;
    readonly init: number;
    readonly requests: number;
    readonly queue: number;
    readonly store: number;
    readonly api: number;
    readonly total: number;
  };
  /** Limits that bound this job, each with what the design does there. */
  readonly binding: string[];
}

/** Documents per request: RERANK_MAX_DOCUMENTS, or fewer when the 6 MB body fills first (~30 B of JSON per document). */
export function documentsPerJob(documentBytes: number): number {
  return Math.min(SERVICE.maxDocumentsPerJob, Math.floor((LIMITS.lambdaPayloadBytes * 0.95) / (documentBytes + 30)));
}

/**
 * Wall time and dollars of scoring `documents` through the queue. A flow model in small time steps:
 * the worker concurrency available at time s is min(asked, account limit, SQS ramp 5 + 5/s x s); each
 * worker finishes a chunk every overhead + chunk/pairsPerSecond seconds; the chunk rate is capped by
 * DynamoDB (every chunk puts its scores and counts on its counter's partition, one per 64 chunks of a job up to 16:
 * 1,000 WCU/s per partition, 4,000 WCU/s for a new on-demand table). Plus one cold start and the last chunk's latency.
 */
export function predictJob(s: JobScenario): JobPrediction {
  const chunkDocs = s.chunkDocuments ?? SERVICE.chunkDocuments;
  const docBytes = s.documentBytes ?? SERVICE.documentBytes;
  const perJob = documentsPerJob(docBytes);
  const jobs = Math.ceil(s.documents / perJob);
  const chunks =
    jobs === 1
      ? Math.ceil(s.documents / chunkDocs)
      : Math.ceil(perJob / chunkDocs) * (jobs - 1) + Math.ceil((s.documents - perJob * (jobs - 1)) / chunkDocs);
  const chunkSeconds = s.overheadPerChunkSeconds + chunkDocs / s.pairsPerSecond;
  const concurrencyCap = s.unlimited ? s.concurrency : Math.min(s.concurrency, LIMITS.accountConcurrency);
  // Each job's chunks count on one counter partition per 64 chunks (up to 16), never on its META item.
  const partitionsPerJob = Math.min(
    SERVICE.ledgerShards,
    Math.ceil(Math.ceil(Math.min(perJob, s.documents) / chunkDocs) / SERVICE.chunksPerCounter),
  );
  const storeCap = s.unlimited
    ? Number.POSITIVE_INFINITY
    : Math.min(
        (jobs * partitionsPerJob * LIMITS.dynamoPartitionWcuPerSecond) / SERVICE.wcuPerChunk,
        LIMITS.dynamoTableInitialWcuPerSecond / SERVICE.wcuPerChunk,
      );
  const binding: string[] = [];

  // Chunks *started* flow at workers / chunk time; the job ends one chunk time after the last one starts.
  let t = 0;
  let started = 0;
  let peak = 0;
  let storeBound = 0;
  let rampBound = 0;
  const dt = Math.max(0.001, Math.min(1, chunkSeconds / 50, (chunks * chunkSeconds) / concurrencyCap / 500));
  while (started < chunks) {
    const ramp = s.unlimited ? Number.POSITIVE_INFINITY : LIMITS.sqsInitialConcurrency + LIMITS.sqsScaleUpPerSecond * t;
    const busy = Math.min(concurrencyCap, ramp, chunks);
    peak = Math.max(peak, busy);
    const rate = busy / chunkSeconds;
    if (rate > storeCap) storeBound += dt;
    if (ramp < concurrencyCap && ramp < chunks - started) rampBound += dt;
    const step = Math.min(rate, storeCap) * dt;
    if (started + step >= chunks) {
      t += (chunks - started) / Math.min(rate, storeCap);
      started = chunks;
    } else {
      started += step;
      t += dt;
    }
  }
  const wallSeconds = t + chunkSeconds + (s.unlimited ? 0 : s.coldStartSeconds);

  // Only when the job really reaches the account's limit (a 16-chunk job never does).
  if (!s.unlimited && peak >= LIMITS.accountConcurrency) {
    binding.push(
      'account concurrency (1,000 by default, shared with the API function): ask AWS for more, and reserve concurrency for the API',
    );
  }
  if (rampBound > 0.1 * t)
    binding.push(`SQS scale-up ramp (300 workers/minute) for ${Math.round(rampBound)} s: the queue absorbs the backlog`);
  if (storeBound > 0.1 * t) {
    binding.push(
      jobs === 1
        ? `DynamoDB partitions of the job's chunk counters (${partitionsPerJob} in use, ~${Math.round(storeCap)} chunk writes/s): throughput flattens; larger batch_size means fewer chunks`
        : 'DynamoDB table write rate (4,000 WCU/s for a new on-demand table): throughput flattens until on-demand adapts',
    );
  }
  if (jobs > 1) {
    binding.push(
      perJob < SERVICE.maxDocumentsPerJob
        ? `6 MB request body: ${perJob.toLocaleString('en-US')} documents of ${docBytes} B per request, so ${jobs} jobs (413 beyond; the client splits)`
        : `${SERVICE.maxDocumentsPerJob.toLocaleString('en-US')} documents per request: ${jobs} jobs (413 beyond; the client splits)`,
    );
  }

  const gb = s.memoryMb / 1024;
  const gbSecond = PRICES.lambdaGbSecond[s.architecture];
  const compute = chunks * chunkSeconds * gb * gbSecond;
  const init = Math.min(peak, chunks) * s.coldStartSeconds * gb * gbSecond;
  const requests = chunks * PRICES.lambdaRequest;
  const queue = chunks * SERVICE.sqsRequestsPerChunk * Math.max(1, Math.ceil((chunkDocs * docBytes) / 65536)) * PRICES.sqsRequest;
  const writeUnits =
    chunks * SERVICE.wcuPerChunk + Math.ceil((s.documents * docBytes) / 1024) + Math.ceil((s.documents * 40) / 1024) + jobs * 6;
  const readUnits = chunks * 0.5 + jobs * Math.ceil(wallSeconds / SERVICE.pollSeconds) * 2;
  const store = writeUnits * PRICES.dynamoWriteUnit + readUnits * PRICES.dynamoReadUnit;
  const api = jobs * (1 + Math.ceil(wallSeconds / SERVICE.pollSeconds)) * PRICES.httpApiRequest;
  const total = compute + init + requests + queue + store + api;
  return { wallSeconds, jobs, chunks, peakConcurrency: peak, cost: { compute, init, requests, queue, store, api, total }, binding };
}
