/** Who is calling, as routing, jobs and logs see it. */
export interface Caller {
  /** A stable, non-secret id of the key (hash prefix): what logs and job ownership use. */
  readonly keyId: string;
  /** Jobs this key may have running at once; undefined = unlimited. */
  readonly maxConcurrentJobs?: number | undefined;
}
