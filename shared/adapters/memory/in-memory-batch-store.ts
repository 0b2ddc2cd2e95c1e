import type {
  BatchChunkScores,
  BatchRecord,
  BatchRequestPlan,
  BatchRequestResult,
  BatchStatus,
  FinalizeLease,
} from '../../batches/batch-model.js';
import { isTerminal, mayLeaseFinalize } from '../../batches/batch-model.js';
import { BatchExistsError, type BatchPage, type BatchStore, type ChunkRecorded } from '../../batches/batch-store.js';
import { InMemoryChunkLedger } from './in-memory-chunk-ledger.js';
import { ResultSpill, type ResultSpillOptions } from '../local/result-spill.js';

/** Progress shards per batch: requests count on `line % PROGRESS_SHARDS`, as the DynamoDB adapter spreads its counter items. */
export const PROGRESS_SHARDS = 16;

interface BatchState {
  record: BatchRecord;
  readonly requests: Map<number, BatchRequestPlan>;
  /** Kept result lines; a large one is on disk (`spill`), only its line and outcome here. */
  readonly results: Map<number, KeptResult>;
  readonly shards: { completed: number; failed: number }[];
}

/** A result line kept in memory, or the promise of its line read back from the spill folder. */
type KeptResult =
  | BatchRequestResult
  | { readonly line: number; readonly outcome: BatchRequestResult['outcome']; readonly spilled: Promise<string> };

const byLine = <T>(map: Map<number, T>): T[] => [...map.entries()].sort((a, b) => a[0] - b[0]).map(([, value]) => value);

/** The embedded BatchStore for `npm start` and tests: the port's semantics (conditional transitions, write-once chunks). */
export class InMemoryBatchStore implements BatchStore {
  readonly #batches = new Map<string, BatchState>();
  readonly #spill: ResultSpill | undefined;

  /**
   * `spill`: result lines larger than its threshold go to files in its folder until the batch ends, so a batch that
   * returns documents holds its output on disk, not in the process (`npm start` passes one; tests need none).
   */
  constructor(options: { readonly spill?: ResultSpillOptions } = {}) {
    this.#spill = options.spill && new ResultSpill(options.spill);
  }
  /** Creation order, for newest-first pages. */
  readonly #order: string[] = [];
  /** A request whose result line is kept counts no more chunks. */
  readonly #chunks = new InMemoryChunkLedger((batchId, line) => this.#batches.get(batchId)?.results.has(line) === true);

  #state(batchId: string): BatchState {
    const state = this.#batches.get(batchId);
    if (!state) throw new Error(`no batch ${batchId}`);
    return state;
  }

  async create(batch: BatchRecord): Promise<void> {
    if (this.#batches.has(batch.id)) throw new BatchExistsError(batch.id);
    this.#batches.set(batch.id, {
      record: batch,
      requests: new Map(),
      results: new Map(),
      shards: Array.from({ length: PROGRESS_SHARDS }, () => ({ completed: 0, failed: 0 })),
    });
    this.#order.push(batch.id);
  }

  async get(batchId: string): Promise<BatchRecord | undefined> {
    return this.#batches.get(batchId)?.record;
  }

  async list(ownerKeyId: string, page: { readonly after?: string; readonly limit: number }): Promise<BatchPage> {
    const newestFirst = [...this.#order].reverse().map((id) => (this.#batches.get(id) as BatchState).record);
    const mine = newestFirst.filter((b) => b.ownerKeyId === ownerKeyId);
    const start = page.after === undefined ? 0 : mine.findIndex((b) => b.id === page.after) + 1;
    const rest = start > 0 || page.after === undefined ? mine.slice(start) : [];
    return { batches: rest.slice(0, page.limit), hasMore: rest.length > page.limit };
  }

  async listActive(): Promise<readonly BatchRecord[]> {
    return [...this.#batches.values()].map((s) => s.record).filter((b) => !isTerminal(b.status));
  }

  async update(
    batchId: string,
    from: readonly BatchStatus[],
    patch: Partial<Omit<BatchRecord, 'id' | 'ownerKeyId'>>,
    leaseOwner?: string,
  ): Promise<BatchRecord | undefined> {
    const state = this.#batches.get(batchId);
    if (!state || !from.includes(state.record.status)) return undefined;
    if (leaseOwner !== undefined && state.record.finalizeLease?.owner !== leaseOwner) return undefined;
    state.record = { ...state.record, ...patch };
    return state.record;
  }

  async leaseFinalize(batchId: string, lease: FinalizeLease, now: number): Promise<BatchRecord | undefined> {
    const state = this.#batches.get(batchId);
    if (!state || !mayLeaseFinalize(state.record, lease.owner, now)) return undefined;
    state.record = { ...state.record, finalizeLease: lease };
    return state.record;
  }

  async putRequest(batchId: string, request: BatchRequestPlan): Promise<void> {
    this.#state(batchId).requests.set(request.line, request);
  }

  async getRequest(batchId: string, line: number): Promise<BatchRequestPlan | undefined> {
    return this.#batches.get(batchId)?.requests.get(line);
  }

  async *readRequests(batchId: string): AsyncIterable<BatchRequestPlan> {
    yield* byLine(this.#state(batchId).requests);
  }

  async putChunkScores(batchId: string, line: number, scores: BatchChunkScores, chunkCount: number): Promise<ChunkRecorded> {
    this.#state(batchId);
    return this.#chunks.putChunkScores(batchId, line, scores, chunkCount);
  }

  readChunkScores(batchId: string, line: number): AsyncIterable<BatchChunkScores> {
    return this.#chunks.readChunkScores(batchId, line);
  }

  deleteChunkScores(batchId: string, line: number): Promise<void> {
    return this.#chunks.deleteChunkScores(batchId, line);
  }

  countChunks(batchId: string, line: number): Promise<number> {
    return this.#chunks.countChunks(batchId, line);
  }

  async putResult(batchId: string, result: BatchRequestResult): Promise<boolean> {
    const state = this.#state(batchId);
    if (state.results.has(result.line)) return false;
    // Taken before the write is awaited, so a second delivery of the line finds it kept.
    if (this.#spill?.takes(result)) {
      const spilled = this.#spill.write(batchId, result);
      state.results.set(result.line, { line: result.line, outcome: result.outcome, spilled });
      try {
        await spilled;
      } catch (error) {
        state.results.delete(result.line);
        throw error;
      }
    } else state.results.set(result.line, result);
    (state.shards[result.line % PROGRESS_SHARDS] as { completed: number; failed: number })[result.outcome]++;
    return true;
  }

  async getResult(batchId: string, line: number): Promise<BatchRequestResult | undefined> {
    const kept = this.#batches.get(batchId)?.results.get(line);
    return kept && this.#readBack(kept);
  }

  /** In line order, one line read back at a time (a spilled line is read from its file when its turn comes). */
  async *readResults(batchId: string): AsyncIterable<BatchRequestResult> {
    for (const kept of byLine(this.#state(batchId).results)) yield await this.#readBack(kept);
  }

  async #readBack(kept: KeptResult): Promise<BatchRequestResult> {
    if (!('spilled' in kept)) return kept;
    return { line: kept.line, outcome: kept.outcome, jsonl: await this.#spill!.read(await kept.spilled) };
  }

  async dropWork(batchId: string): Promise<void> {
    const state = this.#batches.get(batchId);
    if (!state) return;
    state.requests.clear();
    this.#chunks.forget(batchId);
    state.results.clear();
    await this.#spill?.drop(batchId);
  }

  async countResults(batchId: string): Promise<{ readonly completed: number; readonly failed: number }> {
    const shards = this.#state(batchId).shards;
    return shards.reduce((sum, s) => ({ completed: sum.completed + s.completed, failed: sum.failed + s.failed }), {
      completed: 0,
      failed: 0,
    });
  }
}
