import { randomUUID } from 'node:crypto';
import type { QuotaLedger } from '../quota/quota-ledger.js';
import { holdRunning, releaseRunning } from '../engine/hold-running.js';
import { RerankError } from '../core/rerank-error.js';
import type { RerankOutcome } from '../core/rerank-outcome.js';
import { outcomeFromStored } from '../engine/stored-outcome.js';
import type { JobSubmission } from './job-submission.js';
import { logger } from '../observability/logger.js';
import { recordRerankMetrics } from '../observability/record-rerank-metrics.js';
import type { ScoreBatch } from '../core/scorer.js';
import { recordChunk } from '../engine/chunk-scoring.js';
import { CannotFuseHereError, IncompleteRequestError, pruneChunkScores } from '../engine/rank-chunk-scores.js';
import { rankSelected, selectTopScores, type ChunkFuser } from '../engine/rank-chunk-scores.js';
import type { ChunkQueue } from './chunk-queue.js';
import { JOB_LEDGER_LINE as JOB_LINE, jobLedgerOwner, type ChunkLedger } from '../engine/chunk-ledger.js';
import { isSameJobCreation, type ChunkTask, type JobRecord, type JobSpec, type JobState, type StoredResult } from './job-model.js';
import { JobExistsError, type JobStore } from './job-store.js';
import { recordJobEnded } from '../observability/record-job-metrics.js';
import { annotateJob } from '../observability/tracer.js';
import { idempotentJobId, replayOf } from '../engine/idempotency-key.js';
import { requestFingerprint } from '../engine/request-fingerprint.js';
import { planChunks } from './plan-chunks.js';
import { submitOrJoin } from './join-identical-job.js';
import { acceptWork } from '../engine/accept-work.js';
import { scoredText, type RerankDocument } from '../core/rerank-request.js';

export const JOB_CANCELLED_REASON = 'cancelled by the client';

export interface JobCoordinatorDeps {
  readonly store: JobStore;
  /** Where the job's chunks are recorded and counted: the batch engine's protocol, the job as one request. */
  readonly chunks: ChunkLedger;
  readonly queue: ChunkQueue;
  readonly jobTtlSeconds: number;
  readonly maxMessageBytes: number;
  readonly nowMs?: () => number;
  readonly newId?: () => string;
  /**
   * The keys' quota ledger, where a running job holds one of its key's `running_jobs` (hold `job:<id>`, taken at submit,
   * given back when the job ends), beside its running batches and stored bytes. Absent = unlimited.
   */
  readonly quota?: QuotaLedger;
  /** The fusion step of a splittable hybrid model, by the job's model id (see JobSpec.fusion). */
  readonly fuserFor?: (modelId: string) => ChunkFuser | undefined;
}

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
 * The async job lifecycle: submit (store + enqueue), record each chunk exactly once, merge when the
 * last chunk lands, fail with a reason. Knows ports only, never DynamoDB or SQS.
 */
export class JobCoordinator {
  readonly #deps: JobCoordinatorDeps;
  readonly #nowMs: () => number;

  constructor(deps: JobCoordinatorDeps) {
    this.#deps = deps;
    this.#nowMs = deps.nowMs ?? Date.now;
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
    };
    const keepDocuments = request.returnDocuments || spec.fusion !== undefined;
    return { spec, tasks, documents: keepDocuments ? request.documents : undefined, now };
  }

  /**
   * Called by a worker once it has scored a chunk; safe under duplicate delivery and concurrent workers. The chunk is
   * recorded and counted in the ChunkLedger without touching the job's item; the worker whose count completes the
   * job queues its merge task, which a fresh invocation runs (as a batch's finalize task), not this chunk's.
   */
  async recordChunk(task: ChunkTask, batch: ScoreBatch, running?: JobState): Promise<void> {
    const job = running ?? (await this.#deps.store.get(task.jobId));
    if (!job) return;
    const chunkCount = task.chunkCount ?? job.chunkCount;
    // A job fused over its whole set needs every score at its merge; any other keeps only what can reach its top_n.
    const pruned = job.fusion
      ? undefined
      : pruneChunkScores(batch.scores, { activation: job.activation, topN: job.topN, threshold: job.threshold });
    const scores = { chunkIndex: task.chunkIndex, offset: task.offset, tokens: batch.tokens, ...(pruned ?? { scores: batch.scores }) };
    const request = { owner: jobLedgerOwner(task.jobId), line: JOB_LINE, chunkCount };
    // The merge runs as a task of its own; a duplicate merge task finds the job ended and does nothing.
    if ((await recordChunk(this.#deps.chunks, request, scores)).complete)
      await this.#deps.queue.send([{ kind: 'merge', jobId: task.jobId }]);
  }

  /** Idempotent: two workers finishing together may both merge; only the first `complete` wins. */
  async merge(jobId: string): Promise<void> {
    const job = await this.#deps.store.get(jobId);
    if (!job || job.status !== 'running') return;
    try {
      const { result, rawScores } = await this.#finalResult(job);
      const now = this.#now();
      if (await this.#deps.store.complete(jobId, result, now)) {
        logger.info('job succeeded', { jobId, chunks: job.chunkCount, seconds: now - job.createdAt });
        this.#recordMetrics(job, result, rawScores, now);
        recordJobEnded(job, 'succeeded', now);
        await this.#ended(job, 'succeeded');
      }
    } catch (error) {
      if (!(error instanceof IncompleteRequestError)) throw error;
      await this.fail(jobId, error.message);
    }
  }

  /** The stored result, and the scores before activation that the metrics describe (as the sync path's rawScores). */
  async #finalResult(job: JobState): Promise<{ result: StoredResult; rawScores: readonly number[] }> {
    let fuse: ((scores: readonly number[]) => Promise<readonly number[]>) | undefined;
    if (job.fusion) {
      const fuser = this.#deps.fuserFor?.(job.model);
      if (!fuser) throw new CannotFuseHereError(job.model);
      const { query } = job.fusion;
      fuse = async (scores) => fuser(query, (await this.#deps.store.getDocuments(job.id)).map(scoredText), scores);
    }
    // Every candidate's final score, for the metrics only: a job's candidates came inline, so they are bounded.
    const rawScores = new Array<number>(job.documentCount).fill(Number.NaN);
    const options = { total: job.documentCount, activation: job.activation, topN: job.topN, threshold: job.threshold };
    const request = { owner: jobLedgerOwner(job.id), line: JOB_LINE, chunkCount: job.chunkCount };
    const selected = await selectTopScores(this.#deps.chunks, request, {
      ...options,
      ...(fuse ? { fuse } : {}),
      onScore: (i, raw) => (rawScores[i] = raw),
    });
    const ranked = rankSelected(selected, options).map((r) => [r.index, r.score] as const);
    return { result: { ranked, totalTokens: selected.tokens }, rawScores };
  }

  /**
   * The metrics a synchronous request records, once per job (only the merge whose `complete` won gets
   * here). A job's scoring time is its wall time: its chunks were scored by many workers.
   */
  #recordMetrics(job: JobState, result: StoredResult, rawScores: readonly number[], now: number): void {
    const wallMs = (now - job.createdAt) * 1000;
    recordRerankMetrics(job.dialect, job.documentCount, outcomeFromStored({ id: job.id, model: job.model, ...result, wallMs, rawScores }));
  }

  async fail(jobId: string, reason: string): Promise<void> {
    const job = await this.#deps.store.get(jobId);
    if (!job || job.status !== 'running') return;
    if (await this.#deps.store.fail(jobId, reason, this.#now())) {
      logger.warn('job failed', { jobId, reason });
      recordJobEnded(job, 'failed', this.#now());
      await this.#ended(job, 'failed');
    }
  }

  /** Runs only after the one transition that ended the job, so the hook sees each job once. */
  async #ended(job: JobState, status: 'succeeded' | 'failed'): Promise<void> {
    try {
      await releaseRunning(this.#deps.quota, 'job', job);
    } catch (error) {
      // A hold left taken expires with the job's lifetime, with nothing worse than a refused submit meanwhile.
      logger.error('job end hook failed', { jobId: job.id, error: error as Error });
    }
    try {
      // The result (or the reason) holds what is kept; the scores would otherwise wait for their TTL.
      await this.#deps.chunks.deleteChunkScores(jobLedgerOwner(job.id), JOB_LINE, job.chunkCount);
    } catch (error) {
      logger.warn('job chunk scores not dropped; they expire with their TTL', { jobId: job.id, status, error: error as Error });
    }
  }

  /**
   * A chunk reached the dead-letter queue. If its scores were recorded after all (its delete was lost,
   * or its visibility ran out while it was written) the job can still finish; otherwise it fails.
   */
  async chunkDeadLettered(jobId: string, chunkIndex: number | undefined, reason: string): Promise<void> {
    if (chunkIndex !== undefined) {
      const job = await this.#deps.store.get(jobId);
      if (job && (await this.#isRecorded(job, chunkIndex))) {
        // Merge only if every chunk is in; otherwise the worker recording the last chunk merges.
        if (job.status === 'running' && (await this.#chunksDone(job)) >= job.chunkCount) await this.merge(jobId);
        return;
      }
    }
    await this.fail(jobId, reason);
  }

  async #isRecorded(job: JobState, chunkIndex: number): Promise<boolean> {
    for await (const chunk of this.#deps.chunks.readChunkScores(jobLedgerOwner(job.id), JOB_LINE, job.chunkCount)) {
      if (chunk.chunkIndex === chunkIndex) return true;
    }
    return false;
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

  /** The job when a chunk of it is still worth scoring (it is running and not expired); undefined otherwise. */
  async runningJob(jobId: string): Promise<JobState | undefined> {
    // Once per chunk: an eventually consistent read (see JobStore.get) is enough to skip an ended job's chunks.
    const job = await this.#deps.store.get(jobId, { consistent: false });
    return job?.status === 'running' ? job : undefined;
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
      wallMs,
      scoringMs: 0,
      ...(documents ? { documentOf: (index: number) => documents[index] } : {}),
    });
  }
}
