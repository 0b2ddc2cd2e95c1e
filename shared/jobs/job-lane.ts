import type { Scorer } from '../core/scorer.js';
import { scoredText } from '../core/rerank-request.js';
import { releaseRunning } from '../engine/hold-running.js';
import { JOB_LEDGER_LINE as JOB_LINE, jobLedgerOwner } from '../engine/chunk-ledger.js';
import { CannotFuseHereError, IncompleteRequestError, rankSelected, selectTopScores } from '../engine/rank-chunk-scores.js';
import { chunkDeadLettered, recordScored, runChunk, type ChunkScored, type OwnerLane, type RunRequest } from '../engine/request-run.js';
import { outcomeFromStored } from '../engine/stored-outcome.js';
import { logger } from '../observability/logger.js';
import { recordJobEnded } from '../observability/record-job-metrics.js';
import { recordRerankMetrics } from '../observability/record-rerank-metrics.js';
import { annotateJob, traced } from '../observability/tracer.js';
import type { JobCoordinatorDeps } from './job-coordinator-deps.js';
import { isFinishTask, type ChunkTask, type JobState, type JobTask, type StoredResult } from './job-model.js';

/** A running job as the engine's run of its chunks sees it: one request under its own ledger owner. */
export interface JobRun extends RunRequest {
  readonly job: JobState;
}

const noScorers = (modelId: string): Scorer => {
  throw new Error(`no scorers here to score model '${modelId}'`);
};

/**
 * The jobs' side of the engine's one run (OwnerLane): a job is one request whose finish - a task of its own, queued by
 * the chunk that completed it - writes its stored result; a failure ends it with a reason. Ending runs once, whatever
 * the deliveries: the store's conditional `complete` / `fail` decide.
 */
export class JobLane implements OwnerLane<JobRun> {
  readonly #deps: JobCoordinatorDeps;
  readonly #scorerFor: (modelId: string) => Scorer;

  constructor(deps: JobCoordinatorDeps, scorerFor: (modelId: string) => Scorer = noScorers) {
    this.#deps = deps;
    this.#scorerFor = scorerFor;
  }

  get chunks(): JobCoordinatorDeps['chunks'] {
    return this.#deps.chunks;
  }

  scorerFor(modelId: string): Scorer {
    return this.#scorerFor(modelId);
  }

  #now(): number {
    return Math.floor((this.#deps.nowMs ?? Date.now)() / 1000);
  }

  /** The job as a request of the run: counted under its own owner, pruned to its top_n unless fused over its whole set. */
  request(job: JobState, chunkCount = job.chunkCount, model = job.fusion?.chunkModel ?? job.model): JobRun {
    const { activation, topN, threshold } = job;
    return {
      job,
      ledger: { owner: jobLedgerOwner(job.id), line: JOB_LINE, chunkCount },
      model,
      prune: job.fusion ? undefined : { activation, topN, threshold },
      label: `job ${job.id}`,
    };
  }

  /** One of the job's tasks: a chunk to score and record, or its finish (every chunk is in). */
  handle(task: JobTask): Promise<void> {
    return isFinishTask(task) ? this.merge(task.jobId) : this.runChunk(task);
  }

  /** One chunk task: skipped once its job has ended (no CPU for results nobody reads), else the engine's run. */
  async runChunk(task: ChunkTask): Promise<void> {
    annotateJob(task.jobId);
    const job = await this.runningJob(task.jobId);
    if (!job) return;
    const { query, documents: texts, instruction, maxDocumentTokens, maxQueryTokens, truncationSide } = task;
    const chunk = { query, texts, instruction, maxDocumentTokens, maxQueryTokens, truncationSide };
    await runChunk(this, this.request(job, task.chunkCount, task.model), { ...chunk, index: task.chunkIndex, offset: task.offset });
  }

  /** A chunk scored elsewhere, recorded once through the run (the job read if not given). */
  async recordChunk(task: ChunkTask, scored: ChunkScored, running?: JobState): Promise<void> {
    const job = running ?? (await this.#deps.store.get(task.jobId));
    if (job)
      await recordScored(this, this.request(job, task.chunkCount, task.model), { index: task.chunkIndex, offset: task.offset }, scored);
  }

  /** The job when a chunk of it is still worth scoring (running, not expired); undefined otherwise. */
  async runningJob(jobId: string): Promise<JobState | undefined> {
    // Once per chunk: an eventually consistent read (see JobStore.get) is enough to skip an ended job's chunks.
    const job = await this.#deps.store.get(jobId, { consistent: false });
    return job?.status === 'running' ? job : undefined;
  }

  async finish(run: JobRun, now = false): Promise<void> {
    // The finish runs as a task of its own; a duplicate finds the job ended and does nothing.
    if (now) await this.merge(run.job.id);
    else await this.#deps.queue.send([{ kind: 'finish', jobId: run.job.id }]);
  }

  async fail(run: JobRun, error: Error): Promise<void> {
    await this.failJob(run.job.id, error.message);
  }

  /** A job's chunk (or finish) reached the dead-letter queue: the engine's one recovery, over the job. */
  async deadLettered(jobId: string, chunkIndex: number | undefined, reason: string): Promise<void> {
    const job = await this.#deps.store.get(jobId);
    if (job) await chunkDeadLettered(this, this.request(job), chunkIndex, reason);
  }

  /** The job's finish: its stored result, written once (two finishes racing: only the first `complete` wins). */
  async merge(jobId: string): Promise<void> {
    annotateJob(jobId);
    const job = await this.#deps.store.get(jobId);
    if (!job || job.status !== 'running') return;
    try {
      const { result, rawScores } = await traced('merge', () => this.#finalResult(job), { jobId });
      const now = this.#now();
      if (await this.#deps.store.complete(jobId, result, now)) {
        logger.info('job succeeded', { jobId, chunks: job.chunkCount, seconds: now - job.createdAt });
        // The metrics a synchronous request records, once per job; its scoring time is its wall time (many workers).
        const wallMs = (now - job.createdAt) * 1000;
        recordRerankMetrics(
          job.dialect,
          job.documentCount,
          outcomeFromStored({ id: job.id, model: job.model, ...result, wallMs, rawScores }),
        );
        recordJobEnded(job, 'succeeded', now);
        await this.#ended(job, 'succeeded');
      }
    } catch (error) {
      if (!(error instanceof IncompleteRequestError)) throw error;
      await this.failJob(jobId, error.message);
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
    const selected = await selectTopScores(this.#deps.chunks, this.request(job).ledger, {
      ...options,
      ...(fuse ? { fuse } : {}),
      onScore: (i, raw) => (rawScores[i] = raw),
    });
    const ranked = rankSelected(selected, options).map((r) => [r.index, r.score] as const);
    const cuts = selected.cuts ? { cuts: selected.cuts } : {};
    return { result: { ranked, totalTokens: selected.tokens, ...cuts }, rawScores };
  }

  async failJob(jobId: string, reason: string): Promise<void> {
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
}
