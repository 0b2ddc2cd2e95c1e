import { isSameJobCreation } from '../../jobs/job-model.js';
import type { RerankDocument } from '../../core/rerank-request.js';
import type { JobSpec, JobState, StoredResult } from '../../jobs/job-model.js';
import { JobExistsError, type JobStore } from '../../jobs/job-store.js';

interface JobEntry {
  record: JobState;
  /** JSON text, like the DynamoDB pages: callers can neither alias nor see fields JSON would drop. */
  documents: string | undefined;
  result: StoredResult | undefined;
}

export interface InMemoryJobStoreOptions {
  /** Epoch seconds; jobs whose expiresAt is before it are treated as absent. */
  readonly clock?: () => number;
}

/**
 * JobStore for `npm start` on a bare machine, with the DynamoDB adapter's semantics (same contract suite).
 * Every method mutates synchronously before its first await, so concurrent calls in one process are atomic,
 * which is what DynamoDB's conditions give the other adapter. Nothing is evicted: a dev server is short-lived.
 */
export class InMemoryJobStore implements JobStore {
  readonly #jobs = new Map<string, JobEntry>();
  readonly #clock: () => number;

  constructor(options: InMemoryJobStoreOptions = {}) {
    this.#clock = options.clock ?? (() => Math.floor(Date.now() / 1000));
  }

  async create(spec: JobSpec, documents: readonly RerankDocument[] | undefined, now: number): Promise<void> {
    const existing = this.#jobs.get(spec.id);
    if (existing && isSameJobCreation(existing.record, spec, now)) return;
    if (existing) throw new JobExistsError(spec.id);
    const record: JobState = { ...spec, status: 'running', createdAt: now, updatedAt: now };
    this.#jobs.set(spec.id, {
      record,
      documents: documents === undefined ? undefined : JSON.stringify(documents),
      result: undefined,
    });
  }

  async get(jobId: string): Promise<JobState | undefined> {
    return this.#live(jobId)?.record;
  }

  async getDocuments(jobId: string): Promise<RerankDocument[]> {
    const text = this.#jobs.get(jobId)?.documents;
    return text === undefined ? [] : (JSON.parse(text) as RerankDocument[]);
  }

  async complete(jobId: string, result: StoredResult, now: number): Promise<boolean> {
    const entry = this.#live(jobId);
    if (entry?.record.status !== 'running') return false;
    entry.result = copyResult(result);
    entry.record = { ...entry.record, status: 'succeeded', updatedAt: now };
    return true;
  }

  async fail(jobId: string, reason: string, now: number): Promise<boolean> {
    const entry = this.#live(jobId);
    if (entry?.record.status !== 'running') return false;
    entry.record = { ...entry.record, status: 'failed', updatedAt: now, error: reason };
    return true;
  }

  async getResult(jobId: string): Promise<StoredResult | undefined> {
    const entry = this.#live(jobId);
    if (entry?.record.status !== 'succeeded' || entry.result === undefined) return undefined;
    return copyResult(entry.result);
  }

  /** The job unless it is absent or past expiresAt (DynamoDB TTL may not have deleted it yet; we hide it the same way). */
  #live(jobId: string): JobEntry | undefined {
    const entry = this.#jobs.get(jobId);
    return entry === undefined || entry.record.expiresAt < this.#clock() ? undefined : entry;
  }
}

/** A copy, as the DynamoDB adapter's bytes are: a caller can never alias what is stored. */
const copyResult = (result: StoredResult): StoredResult => ({
  ranked: result.ranked.map(([i, s]) => [i, s] as const),
  totalTokens: result.totalTokens,
  ...(result.cuts ? { cuts: { ...result.cuts, documents: result.cuts.documents.map(([i, kept]) => [i, kept] as const) } } : {}),
});
