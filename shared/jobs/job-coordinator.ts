import { randomUUID } from 'node:crypto';
import { holdRunning, releaseRunning } from '../engine/hold-running.js';
import { RerankError } from '../core/rerank-error.js';
import type { RerankOutcome } from '../core/rerank-outcome.js';
import { outcomeFromStored } from '../engine/stored-outcome.js';
import type { JobSubmission } from './job-submission.js';
import { logger } from '../observability/logger.js';
import type { ScoreBatch, Scorer } from '../core/scorer.js';
import { JOB_LEDGER_LINE as JOB_LINE, jobLedgerOwner } from '../engine/chunk-ledger.js';
import { isSameJobCreation, type ChunkTask, type JobRecord, type JobSpec, type JobState } from './job-model.js';
import { JobExistsError } from './job-store.js';
import { annotateJob } from '../observability/tracer.js';
import { idempotentJobId, replayOf } from '../engine/idempotency-key.js';
import { requestFingerprint } from '../engine/request-fingerprint.js';
import { planChunks } from './plan-chunks.js';
import { submitOrJoin } from './join-identical-job.js';
import { acceptWork } from '../engine/accept-work.js';
import { scoredText, type RerankDocument } from '../core/rerank-request.js';
import type { JobCoordinatorDeps } from './job-coordinator-deps.js';
import { JobLane } from './job-lane.js';

export const JOB_CANCELLED_REASON = 'cancelled by the client';

export type { JobCoordinatorDeps } from './job-coordinator-deps.js';

export type { JobSubmission } from './job-submission.js';

/** A job ready to store and queue. */
interface PlannedJob {
  readonly spec: JobSpec;
  readonly tasks: readonly ChunkTask[];
  readonly documents: readonly RerankDocument[] | undefined;
  /** Epoch seconds the job is created at. */
  readonly now: number;
}

/**
 * The async job lifecycle: submit (store + enqueue), find, wait, cancel and the outcome. Its chunks, finish and
 * failure run on the engine's one run through JobLane. Knows ports only, never DynamoDB or SQS.
 */
export class JobCoordinator {
  readonly #deps: JobCoordinatorDeps;
  readonly #nowMs: () => number;

  readonly #lane: JobLane;

  constructor(deps: JobCoordinatorDeps) {
    this.#deps = deps;
    this.#nowMs = deps.nowMs ?? Date.now;
    this.#lane = new JobLane(deps);
  }

  #now(): number {
    return Math.floor(this.#nowMs() / 1000);
  }

  /**
   * Submit with an Idempotency-Key: the first call creates the job, every retry by the same key owner gets that
   * job back (`replayed`), also when two retries race (the store refuses the second create of one id).
   * A key reused for a different request is a 422. The window is the job's lifetime (jobTtlSeconds).
   */
  async submitIdempotent(submission: JobSubmission, idempotencyKey: string): Promise<{ job: JobRecord; replayed: boolean }> {
    return this.#accept(submission, idempotencyKey);
  }

  /** The job a previous submit with this key created, if it is still kept; 422 if it was for another request. */
  async findIdempotent(submission: JobSubmission, idempotencyKey: string): Promise<JobRecord | undefined> {
    const stored = await this.#deps.store.get(idempotentJobId(submission.ownerKeyId, idempotencyKey));
    const job = replayOf(
      stored,
      submission.ownerKeyId,
      requestFingerprint(submission.dialect, submission.model, submission.request),
      'job',
    );
    return job && this.#withProgress(job);
  }

  /** A synchronous request that became a job: joins the key's identical job while it runs or just ended (submitOrJoin). */
  async submitOrJoin(submission: JobSubmission): Promise<JobRecord> {
    return submitOrJoin(this, submission, this.#now());
  }

  /** Creates and enqueues a job within the owner's running jobs; with an Idempotency-Key a retry gets the first job. */
  async submit(submission: JobSubmission, idempotencyKey?: string): Promise<JobRecord> {
    return (await this.#accept(submission, idempotencyKey)).job;
  }

  /** A job through the engine's one accept path (acceptWork), as a batch is created. */
  async #accept(submission: JobSubmission, idempotencyKey: string | undefined): Promise<{ job: JobRecord; replayed: boolean }> {
    const { ownerKeyId } = submission;
    const id = idempotencyKey === undefined ? (this.#deps.newId ?? randomUUID)() : idempotentJobId(ownerKeyId, idempotencyKey);
    const requestHash =
      idempotencyKey === undefined ? undefined : requestFingerprint(submission.dialect, submission.model, submission.request);
    const raced = async (): Promise<{ job: JobRecord; replayed: boolean } | undefined> => {
      const first = idempotencyKey === undefined ? undefined : await this.findIdempotent(submission, idempotencyKey);
      return first && { job: first, replayed: true };
    };
    const current = async (): Promise<{ job: JobRecord; replayed: boolean }> => ({
      job: await this.#withProgress((await this.#deps.store.get(id)) as JobState),
      replayed: false,
    });
    let planned: PlannedJob | undefined;
    annotateJob(id);
    return acceptWork({
      replay: raced,
      hold: () => this.#holdRunningJob(submission, id),
      release: () => releaseRunning(this.#deps.quota, 'job', { id, ownerKeyId }),
      store: async () => {
        planned = this.#plan(submission, id, requestHash);
        await this.#deps.store.create(planned.spec, planned.documents, planned.now);
      },
      stored: async (error) => {
        if (!(error instanceof JobExistsError)) {
          // The write's outcome is unknown (its answer was lost, and no SDK retry found it): a record that is this
          // create's own is queued now - left unqueued it would read `running` until its expiry, to an Idempotency-Key
          // retry too. Its chunks queued twice (a racing retry queues them as well) are a second delivery, which the
          // ledger counts once.
          const record = await this.#deps.store.get(id);
          if (record && planned && isSameJobCreation(record, planned.spec, planned.now)) return 'ours';
        }
        const first = await raced();
        if (first) return first;
        // The id is taken by an expired job whose item the store has not dropped yet (DynamoDB TTL lags).
        if (idempotencyKey !== undefined && error instanceof JobExistsError) {
          throw new RerankError('invalid_request', 'this Idempotency-Key belongs to a job that has expired; use a new key', {
            param: 'Idempotency-Key',
          });
        }
        throw error;
      },
      enqueue: () => this.#deps.queue.send((planned as PlannedJob).tasks, { tenant: ownerKeyId }),
      unqueued: async (error) => {
        logger.error('enqueue failed', { jobId: id, error: error as Error });
        await this.fail(id, 'the job could not be queued; submit it again');
        return current();
      },
      accepted: async () => {
        const { spec, now } = planned as PlannedJob;
        logger.info('job submitted', { jobId: id, documents: spec.documentCount, chunks: spec.chunkCount, model: spec.model });
        // The job as created, not read back: an accepted job is answered even when a read would fail now.
        return { job: { ...spec, status: 'running', createdAt: now, updatedAt: now, chunksDone: 0 }, replayed: false };
      },
    });
  }

  /** Takes one of the key's running jobs (atomically on the ledger); 429 with Retry-After at its limit. False if none was taken. */
  #holdRunningJob(submission: JobSubmission, id: string): Promise<boolean> {
    const owner = { id, ownerKeyId: submission.ownerKeyId, holdUntil: this.#now() + this.#deps.jobTtlSeconds };
    return holdRunning(this.#deps.quota, 'job', owner, submission.maxConcurrentJobs);
  }

  /** The job's record and chunk tasks: its candidates split into chunks that carry them inline. */
  #plan(submission: JobSubmission, id: string, requestHash: string | undefined): PlannedJob {
    const { request, model, batchSize } = submission;
    const tasks = planChunks({
      jobId: id,
      model: submission.fusion?.chunkModel ?? model,
      query: request.query,
      documents: request.documents.map(scoredText),
      maxDocumentTokens: request.maxTokensPerDocument,
      instruction: request.prompt,
      maxQueryTokens: request.maxTokensPerQuery,
      truncationSide: request.truncationSide,
      batchSize,
      maxMessageBytes: this.#deps.maxMessageBytes,
    });
    const now = this.#now();
    const spec: JobSpec = {
      id,
      dialect: submission.dialect,
      ownerKeyId: submission.ownerKeyId,
      model,
      documentCount: request.documents.length,
      chunkCount: tasks.length,
      topN: request.topN,
      threshold: request.threshold,
      returnDocuments: request.returnDocuments,
      activation: submission.activation,
      expiresAt: now + this.#deps.jobTtlSeconds,
      ...(submission.fusion ? { fusion: { query: request.query, chunkModel: submission.fusion.chunkModel } } : {}),
      ...(requestHash === undefined ? {} : { requestHash }),
      ...(submission.unusedControls?.length ? { unusedControls: submission.unusedControls } : {}),
    };
    const keepDocuments = request.returnDocuments || spec.fusion !== undefined;
    return { spec, tasks, documents: keepDocuments ? request.documents : undefined, now };
  }

  /** The job's side of the engine's one run: its chunks, finish and failure (JobLane). */
  get lane(): JobLane {
    return this.#lane;
  }

  /** A worker with this process's scorers runs the job's chunk tasks on this lane. */
  laneWith(scorerFor: (modelId: string) => Scorer): JobLane {
    return new JobLane(this.#deps, scorerFor);
  }

  /** A chunk scored elsewhere, recorded once (JobLane.recordChunk). */
  recordChunk(task: ChunkTask, batch: ScoreBatch, running?: JobState): Promise<void> {
    return this.#lane.recordChunk(task, batch, running);
  }

  /** The job's finish: its stored result, once (JobLane.merge). */
  merge(jobId: string): Promise<void> {
    return this.#lane.merge(jobId);
  }

  fail(jobId: string, reason: string): Promise<void> {
    return this.#lane.failJob(jobId, reason);
  }

  /** A chunk reached the dead-letter queue: the engine's one recovery (finish if it was recorded after all, else fail). */
  chunkDeadLettered(jobId: string, chunkIndex: number | undefined, reason: string): Promise<void> {
    return this.#lane.deadLettered(jobId, chunkIndex, reason);
  }

  #chunksDone(job: JobState): Promise<number> {
    return this.#deps.chunks.countChunks(jobLedgerOwner(job.id), JOB_LINE, job.chunkCount);
  }

  /** The job with its progress: the ledger's count while it runs or after it failed, every chunk once it succeeded. */
  async #withProgress(job: JobState): Promise<JobRecord> {
    return { ...job, chunksDone: job.status === 'succeeded' ? job.chunkCount : Math.min(job.chunkCount, await this.#chunksDone(job)) };
  }

  /**
   * Cancelling ends a running job failed with that reason (accepted work always ends succeeded or
   * failed); workers then skip its chunks. Finished jobs stay as they are. Unknown or foreign: not_found.
   */
  async cancel(jobId: string, ownerKeyId: string): Promise<void> {
    const job = await this.find(jobId, ownerKeyId);
    if (!job) throw new RerankError('not_found', `no job '${jobId}'`);
    if (job.status === 'running') await this.fail(jobId, JOB_CANCELLED_REASON);
  }

  /**
   * Waits up to `waitMs` for a running job to end, reading it every `pollMs`: how a rerank endpoint that planned a
   * job answers in the same request when the job is quick. Answers the job as last read (still running = timed out).
   */
  async waitFor(job: JobRecord, ownerKeyId: string, waitMs: number, pollMs = 100): Promise<JobRecord> {
    const deadline = performance.now() + waitMs;
    let current = job;
    while (current.status === 'running' && performance.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, Math.min(pollMs, Math.max(0, deadline - performance.now()))));
      current = (await this.find(job.id, ownerKeyId)) ?? current;
    }
    return current;
  }

  /** The job as its owner sees it; another key's job or an expired one is indistinguishable from none. */
  async find(jobId: string, ownerKeyId: string): Promise<JobRecord | undefined> {
    const job = await this.#deps.store.get(jobId);
    return job && job.ownerKeyId === ownerKeyId ? this.#withProgress(job) : undefined;
  }

  /** Rebuilds the outcome the synchronous path would have returned, for the dialect to format. */
  async outcome(job: JobRecord): Promise<RerankOutcome | undefined> {
    if (job.status !== 'succeeded') return undefined;
    const stored = await this.#deps.store.getResult(job.id);
    if (!stored) return undefined;
    const documents = job.returnDocuments ? await this.#deps.store.getDocuments(job.id) : undefined;
    const wallMs = (job.updatedAt - job.createdAt) * 1000;
    return outcomeFromStored({
      id: job.id,
      model: job.model,
      ...stored,
      pairs: job.documentCount,
      unusedControls: job.unusedControls,
      wallMs,
      scoringMs: 0,
      ...(documents ? { documentOf: (index: number) => documents[index] } : {}),
    });
  }
}
