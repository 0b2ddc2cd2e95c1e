/** Who is calling, as routing, jobs and logs see it. */
export interface Caller {
  /** A stable, non-secret id of the key (hash prefix): what logs and job ownership use. */
  readonly keyId: string;
  /** Jobs this key may have running at once; undefined = unlimited. */
  readonly maxConcurrentJobs?: number | undefined;
  /** The key's own bound on its batches' queued pairs; undefined = the service's (RERANK_BATCH_MAX_QUEUED_PAIRS). */
  readonly maxQueuedPairs?: number | undefined;
}
