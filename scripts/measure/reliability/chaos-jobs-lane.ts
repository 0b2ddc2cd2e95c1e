import { isDeepStrictEqual } from 'node:util';
import { performance } from 'node:perf_hooks';
import { DynamoDbBatchStore } from '../../../shared/adapters/dynamodb/dynamodb-batch-store.js';
import { DynamoDbJobStore } from '../../../shared/adapters/dynamodb/dynamodb-job-store.js';
import { SqsTaskQueue } from '../../../shared/adapters/sqs/sqs-task-queue.js';
import type { RerankRequest } from '../../../shared/core/rerank-request.js';
import { defaultActivation } from '../../../shared/core/score-activation.js';
import type { JobTask } from '../../../shared/engine/job-task.js';
import { JobCoordinator } from '../../../shared/jobs/job-coordinator.js';
import type { ServiceRuntime } from '../../../shared/runtime/service-runtime.js';
import { hashSeed, seededRandom } from '../../eval/seeded-random.js';
import type { ChaosEnv, ChaosLaneRun } from './chaos-run.js';

/** The jobs a run submits. */
export interface JobsWork {
  readonly jobs: number;
  /** Documents per job, drawn uniformly from [min, max]. */
  readonly documents: readonly [number, number];
  readonly batchSizes: readonly number[];
  /** Every n-th job (the 1st, the n+1-th, ...) has one chunk that throws on every delivery; 0 = none. */
  readonly poisonEvery: number;
}

export type JobEnd = 'succeeded' | 'failed' | 'running' | 'missing';

export interface JobVerdict {
  readonly id: string;
  readonly documents: number;
  readonly chunks: number;
  readonly poisonedChunk: number | undefined;
  readonly end: JobEnd;
  readonly error: string | undefined;
  /** Submit to first seen ended, in ms (poll granularity 200 ms). */
  readonly latencyMs: number | undefined;
  /** Why this job breaks the invariant; undefined = it holds. */
  readonly violation: string | undefined;
}

export interface JobsLaneReport {
  readonly verdicts: readonly JobVerdict[];
  /** Submissions that threw: never accepted, so outside the invariant; `leftRunning` counts those whose job exists running. */
  readonly submitErrors: readonly { readonly message: string; readonly leftRunning: boolean }[];
  readonly violations: readonly string[];
}

/** A poisoned job names its bad chunk in its query, so the worker and the final check agree on it without shared state. */
export const poisonQuery = (query: string, chunkIndex: number): string => `${query} [poison chunk ${chunkIndex}]`;

export function poisonedChunk(query: string): number | undefined {
  const match = /\[poison chunk (\d+)\]$/.exec(query);
  return match ? Number(match[1]) : undefined;
}

const WORDS =
  'neural network gradient ranking search query lambda queue python library panda bamboo transformer attention http retry'.split(' ');

function chaosRequest(random: () => number, i: number, work: JobsWork): { request: RerankRequest; batchSize: number } {
  const [min, max] = work.documents;
  const n = min + Math.floor(random() * (max - min + 1));
  const batchSize = work.batchSizes[Math.floor(random() * work.batchSizes.length)] ?? 10;
  const documents = Array.from({ length: n }, (_, d) => ({
    text: Array.from({ length: 4 + Math.floor(random() * 30) }, () => WORDS[Math.floor(random() * WORDS.length)]).join(' ') + ` #${d}`,
  }));
  let query = `job ${i}: how do neural networks learn to rank search results`;
  const chunk = Math.floor(random() * Math.ceil(n / batchSize));
  if (work.poisonEvery > 0 && i % work.poisonEvery === 0) query = poisonQuery(query, chunk);
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

interface Submitted {
  readonly id: string;
  readonly at: number;
  readonly request: RerankRequest;
  readonly accepted: boolean;
  readonly error: Error | undefined;
}

/**
 * The jobs lane: `work.jobs` jobs through the real async path (JobCoordinator over DynamoDbJobStore and the shared task
 * queue, on the faulty clients), each then checked on the truth (`runtime`, clean clients): succeeded with exactly the
 * synchronous result, or - poisoned jobs, and only they - failed with a reason; never lost or still running.
 */
export function jobsLane(env: ChaosEnv, runtime: ServiceRuntime, work: JobsWork, seed: number) {
  const random = seededRandom(hashSeed('jobs', seed));
  let nextJob = 0;
  const jobs = new JobCoordinator({
    store: new DynamoDbJobStore(env.stack.tableName, env.dynamodb),
    chunks: new DynamoDbBatchStore(env.dynamodb, env.stack.tableName),
    queue: new SqsTaskQueue<JobTask>(env.sqs, env.queueUrl, 'chunk', { maxMessageBytes: runtime.config.jobs.maxMessageBytes }),
    jobTtlSeconds: runtime.config.jobs.ttlSeconds,
    maxMessageBytes: runtime.config.jobs.maxMessageBytes,
    // submit() draws its id synchronously, so the n-th call gets the n-th id.
    newId: () => `${env.runId}-${nextJob++}`,
  });
  const planned = Array.from({ length: work.jobs }, (_, i) => chaosRequest(random, i, work));
  let submitted: Submitted[] = [];
  const ended = new Map<string, number>();
  const submit = async ({ request, batchSize }: (typeof planned)[number]): Promise<Submitted> => {
    const scorer = runtime.service.resolveScorer(request.model);
    const activation = request.activation ?? defaultActivation(scorer);
    const submission = jobs.submit({ request, dialect: 'openai', ownerKeyId: 'chaos', model: scorer.id, activation, batchSize });
    const id = `${env.runId}-${nextJob - 1}`;
    const at = performance.now();
    try {
      await submission;
      return { id, at, request, accepted: true, error: undefined };
    } catch (error) {
      return { id, at, request, accepted: false, error: error as Error };
    }
  };
  const lane: ChaosLaneRun = {
    owners: { jobs: async () => ({ scorers: runtime.scorers, jobs }) },
    poisoned: (info) => info.lane === 'jobs' && info.kind === 'chunk' && poisonedChunk(info.query ?? '') === info.chunkIndex,
    start: async () => {
      submitted = await Promise.all(planned.map(submit));
    },
    progress: async () => {
      let chunksDone = 0;
      const accepted = submitted.filter((s) => s.accepted);
      await Promise.all(
        accepted
          .filter((s) => !ended.has(s.id))
          .map(async (s) => {
            const job = await runtime.jobs.find(s.id, 'chaos');
            if (job?.status !== 'running') ended.set(s.id, performance.now() - s.at);
            else chunksDone += job.chunksDone;
          }),
      );
      return {
        done: ended.size === accepted.length,
        progress: `${ended.size}/${accepted.length} jobs ended, ${chunksDone} chunks done in the others`,
      };
    },
  };
  return { lane, report: (stalled: string | undefined) => jobsReport(runtime, submitted, ended, stalled) };
}

async function jobVerdict(runtime: ServiceRuntime, s: Submitted, latencyMs: number | undefined, stalled: string | undefined) {
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
  const verdict: JobVerdict = {
    id: s.id,
    documents: s.request.documents.length,
    chunks: job?.chunkCount ?? 0,
    poisonedChunk: poisoned,
    end,
    error: job?.error,
    latencyMs,
    violation,
  };
  return verdict;
}

async function jobsReport(
  runtime: ServiceRuntime,
  submitted: readonly Submitted[],
  ended: ReadonlyMap<string, number>,
  stalled: string | undefined,
): Promise<JobsLaneReport> {
  const verdicts: JobVerdict[] = [];
  for (const s of submitted.filter((x) => x.accepted)) verdicts.push(await jobVerdict(runtime, s, ended.get(s.id), stalled));
  const submitErrors = await Promise.all(
    submitted
      .filter((s) => s.error !== undefined)
      .map(async (s) => ({ message: s.error?.message ?? '', leftRunning: (await runtime.store.get(s.id))?.status === 'running' })),
  );
  const violations = verdicts.filter((v) => v.violation !== undefined).map((v) => `${v.id}: ${v.violation}`);
  return { verdicts, submitErrors, violations };
}
