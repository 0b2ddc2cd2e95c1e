/** A running local AWS-protocol server. */
export interface EmulatorHandle {
  readonly endpoint: string;
  readonly pid: number;
  /** Kills this server by its own PID and resolves once it has exited. */
  stop(): Promise<void>;
}

export interface StartEmulatorOptions {
  /** Fixed port; default: a free one. */
  readonly port?: number;
  /** Survive this process (for the CLI): detached, output appended to this file instead of kept in memory. */
  readonly detachedLogFile?: string;
  readonly readyTimeoutMs?: number;
}
