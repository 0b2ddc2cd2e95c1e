/** Who is calling, as routing, jobs and logs see it. */
export interface Caller {
  /** A stable, non-secret id of the key (hash prefix): what logs and job ownership use. */
  readonly keyId: string;
  /** Jobs this key may have running at once; undefined = unlimited. */
  readonly maxConcurrentJobs?: number | undefined;
}

/** The key in `Authorization: Bearer <key>` (scheme case-insensitive, surrounding spaces allowed); undefined otherwise. */
export function bearerToken(authorization: string | undefined): string | undefined {
  return /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '')?.[1];
}
