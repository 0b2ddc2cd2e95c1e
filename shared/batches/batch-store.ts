import { AlreadyExistsError } from '../core/already-exists-error.js';
import type { BatchRecord, BatchRequestPlan, BatchRequestResult, BatchStatus, FinalizeLease } from './batch-model.js';
import type { ChunkLedger } from '../engine/chunk-ledger.js';

export type { ChunkRecorded } from '../engine/chunk-ledger.js';

export interface BatchPage {
  readonly batches: readonly BatchRecord[];
  readonly hasMore: boolean;
}

/** A create whose batch id is taken (an Idempotency-Key retry racing the first create). */
export class BatchExistsError extends AlreadyExistsError {
  constructor(readonly batchId: string) {
    super('batch', batchId);
    this.name = 'BatchExistsError';
  }
}

/**
 * Where batches live, beside the job store. Shaped for DynamoDB: one META item per batch changed
 * only by conditional transitions; one item per request plan, per chunk's scores (written once, with a
 * condition) and per finished request; progress as counters spread over shards, so thousands of workers
 * finishing requests never serialize on one item; chunks are recorded through the ChunkLedger protocol.
 * Adapters: in-memory (npm start) and DynamoDB.
 */
export interface BatchStore extends ChunkLedger {
  /** Throws BatchExistsError when the id is taken. */
  create(batch: BatchRecord): Promise<void>;
  get(batchId: string): Promise<BatchRecord | undefined>;
  /** The owner's batches, newest first; `after` is the id the previous page ended with. */
  list(ownerKeyId: string, page: { readonly after?: string; readonly limit: number }): Promise<BatchPage>;
  /** Batches not yet in a terminal status, every key's: the expiry sweep (a key's running batches are counted on the quota ledger). */
  listActive(): Promise<readonly BatchRecord[]>;
  /**
   * Applies `patch` only when the batch's status is one of `from` (a conditional write): returns the new
   * record, or undefined when the condition failed, so two racing finalizers cannot both win. With `leaseOwner`, also
   * only while that owner holds the batch's finalize lease (expired or not: nobody else took it).
   */
  update(
    batchId: string,
    from: readonly BatchStatus[],
    patch: Partial<Omit<BatchRecord, 'id' | 'ownerKeyId'>>,
    leaseOwner?: string,
  ): Promise<BatchRecord | undefined>;
  /**
   * Sets the batch's finalize lease to `lease` when `mayLeaseFinalize(batch, lease.owner, now)` (a conditional write:
   * of two finalizers racing for a free lease one gets it). Taking, renewing and (with `until <= now`) giving it up are
   * this one call. Returns the new record, or undefined when another owner's lease is live or the batch is not ending.
   */
  leaseFinalize(batchId: string, lease: FinalizeLease, now: number): Promise<BatchRecord | undefined>;

  putRequest(batchId: string, request: BatchRequestPlan): Promise<void>;
  getRequest(batchId: string, line: number): Promise<BatchRequestPlan | undefined>;
  /** Admitted requests in line order (streamed: the finalizer writes what never finished). */
  readRequests(batchId: string): AsyncIterable<BatchRequestPlan>;

  /**
   * Keeps a request's result line once and counts it (completed or failed) on a progress shard; a second
   * call for the same line returns false and counts nothing.
   */
  putResult(batchId: string, result: BatchRequestResult): Promise<boolean>;
  getResult(batchId: string, line: number): Promise<BatchRequestResult | undefined>;
  /** Results in line order, streamed. */
  readResults(batchId: string): AsyncIterable<BatchRequestResult>;
  /** The progress shards summed. */
  countResults(batchId: string): Promise<{ readonly completed: number; readonly failed: number }>;
  /** Drops an ended batch's request plans, chunk scores and result lines: its output and error files hold them now. */
  dropWork(batchId: string): Promise<void>;
}
