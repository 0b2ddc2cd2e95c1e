import type { SQSRecord } from 'aws-lambda';
import { decodeJobTask } from '../../../shared/engine/job-task-codec.js';
import { isMergeTask } from '../../../shared/jobs/job-model.js';
import { jobLedgerOwner, type ChunkLedger } from '../../../shared/engine/chunk-ledger.js';
import type { JobCoordinator } from '../../../shared/jobs/job-coordinator.js';
import { runJobTask } from '../../../shared/jobs/score-chunk-task.js';
import type { ScorerRegistry } from '../../../shared/core/scorer-registry.js';
import type { FaultCounts } from './fault-counts.js';

/** Probabilities per delivery of a (non-poison) chunk; 0 turns a fault off. */
export interface WorkerFaultRates {
  /** The worker scores the chunk, then dies before writing anything. */
  readonly crashBeforeWrite: number;
  /** The worker scores and records the chunk, then dies before the merge and before the message is deleted. */
  readonly crashAfterWrite: number;
  /** The chunk is sent to the queue once more (a second, independent delivery of the same chunk). */
  readonly duplicateDelivery: number;
}

export const NO_WORKER_FAULTS: WorkerFaultRates = { crashBeforeWrite: 0, crashAfterWrite: 0, duplicateDelivery: 0 };

/**
 * A poisoned job names its bad chunk in its query, so every worker (and the final check) agrees on it without
 * shared state, and the synchronous reference scores the very same query.
 */
export const poisonQuery = (query: string, chunkIndex: number): string => `${query} [poison chunk ${chunkIndex}]`;

export function poisonedChunk(query: string): number | undefined {
  const match = /\[poison chunk (\d+)\]$/.exec(query);
  return match ? Number(match[1]) : undefined;
}

export class InjectedCrash extends Error {
  override readonly name = 'InjectedCrash';
}

export interface ChaosWorkerDeps {
  readonly scorers: ScorerRegistry;
  /** The coordinator and chunk ledger the worker writes through (built on the faulty SDK clients). */
  readonly jobs: JobCoordinator;
  readonly chunks: ChunkLedger;
  /** Puts a message body on the chunk queue again. */
  readonly resend: (body: string) => Promise<void>;
  readonly rates: WorkerFaultRates;
  readonly random: () => number;
  readonly counts: FaultCounts;
  /**
   * Crashes happen only on deliveries up to this receive count, so a healthy chunk always has clean deliveries
   * left before maxReceiveCount sends it to the dead-letter queue; poison chunks fail on every delivery.
   */
  readonly faultyReceives: number;
}

/**
 * The real record handler (`scoreChunkTask` over the decoded body) wrapped where a Lambda worker would crash: before or after its
 * write, or with its chunk delivered twice; a poison chunk throws on every delivery.
 */
export function chaosRecordHandler(deps: ChaosWorkerDeps): (record: SQSRecord) => Promise<void> {
  const { rates, random, counts } = deps;
  return async (record) => {
    const decoded = decodeJobTask(record.body);
    // A merge task runs as the worker would run it; the faults below are a chunk's.
    if (isMergeTask(decoded)) return runJobTask(decoded, { scorers: deps.scorers, jobs: deps.jobs });
    const task = decoded;
    if (poisonedChunk(task.query) === task.chunkIndex) {
      counts.add('worker: poison chunk delivery (throws)');
      throw new InjectedCrash(`poison chunk ${task.chunkIndex} of job ${task.jobId}`);
    }
    const receiveCount = Number(record.attributes.ApproximateReceiveCount);
    counts.add(receiveCount > 1 ? 'observed: redelivery of a chunk (receive count > 1)' : 'observed: first delivery of a chunk');
    if (receiveCount <= deps.faultyReceives) {
      if (random() < rates.duplicateDelivery) {
        counts.add('worker: chunk delivered twice');
        await deps.resend(record.body);
      }
      if (random() < rates.crashBeforeWrite) {
        counts.add('worker: crash after scoring, before the write');
        await deps.scorers.get(task.model).score(task.query, task.documents);
        throw new InjectedCrash('crashed before writing');
      }
      if (random() < rates.crashAfterWrite) {
        counts.add('worker: crash after the write, before merge/delete');
        const batch = await deps.scorers.get(task.model).score(task.query, task.documents);
        const { chunkIndex, offset } = task;
        if (task.chunkCount === undefined) throw new Error(`chunk ${chunkIndex} of job ${task.jobId} carries no chunk count`);
        await deps.chunks.putChunkScores(
          jobLedgerOwner(task.jobId),
          1,
          { chunkIndex, offset, scores: batch.scores, tokens: batch.tokens },
          task.chunkCount,
        );
        throw new InjectedCrash('crashed after writing');
      }
    }
    await runJobTask(task, { scorers: deps.scorers, jobs: deps.jobs });
  };
}
