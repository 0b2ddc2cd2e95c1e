import type { SQSBatchItemFailure, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_MODEL_SPEC } from '../../../shared/config/service-config.js';
import { rerankRequest, type RerankRequest } from '../../../shared/core/rerank-request.js';
import { decodeJobTask } from '../../../shared/engine/task-codec.js';
import { planChunks } from '../../../shared/jobs/plan-chunks.js';
import { isFinishTask, type JobRecord, type JobTask } from '../../../shared/jobs/job-model.js';
import { localLambdaContext } from '../../../shared/http/node-http-adapter.js';
import type { ServiceRuntime } from '../../../shared/runtime/service-runtime.js';
import type { LocalAwsStack } from '../../../scripts/emulators/local-aws-stack.js';
import { HANG_CEILING_MS } from '../../../scripts/support/wait-for-progress.js';
import { startAwsFlow, type AwsFlow } from '../../support/aws-flow.js';
import { runAsLambda } from '../../support/iam/aws-call-recorder.js';

/**
 * The async path end to end on real protocols: DynamoDB Local for the job store, moto for SQS, the real
 * worker and dead-letter Lambda handlers fed by pollers, real ONNX scoring. Faults are injected ahead of
 * the worker's handler, per record, exactly where a Lambda would crash.
 */
let flow: AwsFlow;
let stack: LocalAwsStack;
let runtime: ServiceRuntime;
type Handler = (event: SQSEvent, context: ReturnType<typeof localLambdaContext>) => Promise<unknown>;
let taskWorker: Handler;
let deadLetterHandler: Handler;

const MAX_RECEIVES = 2;
const VISIBILITY_TIMEOUT_SECONDS = 30;
const words = ['neural', 'network', 'gradient', 'panda', 'bamboo', 'http', 'python', 'library', 'queue', 'lambda', 'ranking', 'search'];
const makeDocs = (n: number) =>
  Array.from(
    { length: n },
    (_, i) => `${i}: ${Array.from({ length: 3 + (i % 17) }, (_, j) => words[(i * 7 + j * 3) % words.length]).join(' ')}`,
  );

const request = (documents: string[], overrides: Partial<RerankRequest> = {}): RerankRequest =>
  rerankRequest(
    'how do neural networks learn to rank search results',
    documents.map((text) => ({ text })),
    overrides,
  );

/** A fault ahead of the worker: resolves true when it crashed this task's delivery, as a Lambda dying on it would. */
type Fault = (task: JobTask) => Promise<boolean>;
const NO_FAULT: Fault = async () => false;
let fault = NO_FAULT;

/** The worker function's own handler behind the faults: a crashed record is reported failed, the others run through it. */
async function faultyWorker(event: SQSEvent): Promise<SQSBatchResponse> {
  const crashed: SQSBatchItemFailure[] = [];
  const records: SQSRecord[] = [];
  for (const record of event.Records) {
    if (await fault(decodeJobTask(record.body))) crashed.push({ itemIdentifier: record.messageId });
    else records.push(record);
  }
  if (records.length === 0) return { batchItemFailures: crashed };
  const answer = (await taskWorker({ Records: records }, localLambdaContext())) as SQSBatchResponse;
  return { batchItemFailures: [...crashed, ...answer.batchItemFailures] };
}

function startWorkers(concurrency: number): void {
  // Each consumer stands for its function's event source mapping and runs as that function (the IAM check at the end).
  flow.consume('worker', stack.queueUrl, faultyWorker, { batchSize: 5, concurrency });
  flow.consume('deadLetter', stack.dlqUrl, async (event) => (await deadLetterHandler(event, localLambdaContext())) as SQSBatchResponse, {
    batchSize: 10,
    retryDelaySeconds: undefined,
  });
}

async function submit(req: RerankRequest, batchSize: number): Promise<JobRecord> {
  const scorer = runtime.service.resolveScorer(req.model);
  // Submitting and polling are the API function's calls.
  return runAsLambda('api', () =>
    runtime.jobs.submit({ request: req, dialect: 'openai', ownerKeyId: 'key-a', model: scorer.id, activation: 'sigmoid', batchSize }),
  );
}

/**
 * Polls the job until it ends. Gives up only when nothing moved for twice the visibility timeout: a crashed worker's
 * chunk is invisible that long before it is delivered again, and a loaded machine is slow, not lossy.
 */
async function settle(jobId: string): Promise<{ job: JobRecord; progress: number[] }> {
  const progress: number[] = [];
  const job = await flow.drain(`job ${jobId}`, 2 * VISIBILITY_TIMEOUT_SECONDS * 1000, async () => {
    const job = await runAsLambda('api', () => runtime.jobs.find(jobId, 'key-a'));
    if (!job) throw new Error(`job ${jobId} vanished`);
    progress.push(job.chunksDone);
    return { done: job.status !== 'running', progress: `${job.chunksDone}/${job.chunkCount} chunks`, value: job };
  });
  return { job, progress };
}

beforeAll(async () => {
  // The fixture cross-encoder: per-document scores, so chunks are independent (as jobs require).
  flow = await startAwsFlow({
    maxReceiveCount: MAX_RECEIVES,
    visibilityTimeoutSeconds: VISIBILITY_TIMEOUT_SECONDS,
    env: { RERANK_MODELS: FIXTURE_MODEL_SPEC },
  });
  stack = flow.stack;
  // Imported after the environment points at the emulators: the runtime reads configuration once.
  const { serviceRuntime } = await import('../../../shared/runtime/process-runtime.js');
  runtime = await serviceRuntime();
  ({ handler: deadLetterHandler } = await import('../../../functions/workers/dead-letter.js'));
  ({ handler: taskWorker } = await import('../../../functions/workers/task-worker.js'));
  startWorkers(4);
});

afterAll(async () => {
  await flow?.stop();
});

// settle() fails first, with the chunks done of the count, whenever a job stops moving; the ceiling only catches a hang.
describe('async jobs over SQS (moto) and DynamoDB Local', { timeout: HANG_CEILING_MS }, () => {
  it('1,000 documents in chunks of 50 across 4 concurrent workers equal the synchronous result exactly', async () => {
    const req = request(makeDocs(1000), { topN: 100 });
    const sync = await runtime.service.rerank(req);
    const submitted = await submit(req, 50);
    expect(submitted.chunkCount).toBe(20);
    const { job, progress } = await settle(submitted.id);
    expect(job.status).toBe('succeeded');
    expect(job.chunksDone).toBe(20);
    expect([...progress].sort((a, b) => a - b)).toEqual(progress);
    const outcome = await runtime.jobs.outcome(job);
    expect(outcome?.results).toEqual(sync.results);
    expect(outcome?.usage.totalTokens).toBe(sync.usage.totalTokens);
  });

  it('counts a chunk delivered twice once', async () => {
    // Chunk 2 is enqueued twice next to the others, as SQS at-least-once delivery may do. Counted twice,
    // the job would merge before chunk 3 landed and fail for a missing score.
    const docs = makeDocs(40);
    const req = request(docs);
    const now = Math.floor(Date.now() / 1000);
    const spec = { ...(await submit(request(['placeholder']), 1)), id: `dup-${now}-${Math.random()}`, documentCount: 40, chunkCount: 4 };
    await runtime.store.create(spec, undefined, now);
    const tasks = planChunks({
      jobId: spec.id,
      model: spec.model,
      query: req.query,
      documents: docs,
      batchSize: 10,
      maxMessageBytes: 1 << 20,
    });
    await runtime.queue.send([tasks[2], ...tasks, tasks[2]].filter((t) => t !== undefined));
    const { job } = await settle(spec.id);
    expect(job.status).toBe('succeeded');
    expect(job.chunksDone).toBe(4);
    expect((await runtime.jobs.outcome(job))?.results).toEqual((await runtime.service.rerank(req)).results);
  });

  it('loses nothing when a worker dies after scoring but before writing', async () => {
    const crashed = new Set<string>();
    fault = async (task) => {
      if (isFinishTask(task) || task.chunkIndex !== 1 || crashed.has(task.jobId)) return false;
      await runtime.scorers.get(task.model).score(task.query, task.documents); // the work is done...
      crashed.add(task.jobId);
      return true; // ...and lost with the invocation, before writing
    };
    try {
      const req = request(makeDocs(30));
      const { job } = await settle((await submit(req, 10)).id);
      expect(crashed.size).toBe(1);
      expect(job.status).toBe('succeeded');
      expect((await runtime.jobs.outcome(job))?.results).toEqual((await runtime.service.rerank(req)).results);
    } finally {
      fault = NO_FAULT;
    }
  });

  it('fails a job whose chunk keeps failing, with a reason, via the dead-letter queue', async () => {
    // A poison chunk: every delivery of it crashes.
    fault = async (task) => !isFinishTask(task) && task.chunkIndex === 0;
    try {
      const { job } = await settle((await submit(request(makeDocs(20)), 10)).id);
      expect(job.status).toBe('failed');
      expect(job.error).toBe('chunk 0 could not be scored: it failed on every delivery and was moved to the dead-letter queue');
    } finally {
      fault = NO_FAULT;
    }
  });

  it('fails at once, without retries, when the workers do not serve the model', async () => {
    // A job whose model the workers lack (e.g. a deployment with mismatched model folders).
    const submitted = await submit(request(makeDocs(5)), 5);
    const now = Math.floor(Date.now() / 1000);
    const spec = { ...submitted, id: `${submitted.id}-other-model`, model: 'gone', chunkCount: 1 };
    await runtime.store.create(spec, undefined, now);
    await runtime.queue.send([{ jobId: spec.id, chunkIndex: 0, offset: 0, model: 'gone', query: 'q', documents: ['a'] }]);
    const { job } = await settle(spec.id);
    expect(job.status).toBe('failed');
    expect(job.error).toBe("model 'gone' is not loaded by the workers");
  });
});
