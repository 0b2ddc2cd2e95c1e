import { RateLimitedError } from '../auth/rate-limited-error.js';
import { QuotaExceededError, type QuotaLedger } from '../quota/quota-ledger.js';

/** What holds one of its key's running slots while it runs: an async job or a batch. */
export type RunningKind = 'job' | 'batch';

/**
 * Retry-After of a refusal at the running-work limit: a job ends within seconds to minutes, so a short wait usually
 * finds a slot; a batch runs for minutes to hours, so its client waits a minute between attempts.
 */
export const RUNNING_RETRY_AFTER_SECONDS: Readonly<Record<RunningKind, number>> = { job: 5, batch: 60 };

const COUNTER: Readonly<Record<RunningKind, 'running_jobs' | 'running_batches'>> = { job: 'running_jobs', batch: 'running_batches' };

/** The work that holds the slot: its id names the hold, so a retried create racing its first one counts once. */
export interface RunningOwner {
  readonly id: string;
  readonly ownerKeyId: string;
  /** Epoch seconds: a hold left by a process that died before giving it back frees itself then. */
  readonly holdUntil: number;
}

const holdId = (kind: RunningKind, id: string): string => `${kind}:${id}`;

/**
 * Takes one of the key's running jobs or batches for `owner`, atomically on the quota ledger. False when nothing was
 * taken (no ledger, no limit, or the hold is already this work's). At the limit: 429 with Retry-After, the same for both.
 */
export async function holdRunning(
  ledger: QuotaLedger | undefined,
  kind: RunningKind,
  owner: RunningOwner,
  limit: number | undefined,
): Promise<boolean> {
  if (!ledger || limit === undefined) return false;
  const hold = { id: holdId(kind, owner.id), amounts: { [COUNTER[kind]]: 1 }, expiresAt: owner.holdUntil };
  try {
    return await ledger.reserve(owner.ownerKeyId, hold, { [COUNTER[kind]]: limit });
  } catch (error) {
    if (!(error instanceof QuotaExceededError)) throw error;
    const limitText = Number.isFinite(error.limit) ? ` (at most ${error.limit})` : '';
    throw new RateLimitedError(
      `this key already has ${error.used} ${kind === 'job' ? 'jobs' : 'batches'} running${limitText}; wait for one to finish`,
      RUNNING_RETRY_AFTER_SECONDS[kind],
      { cause: error },
    );
  }
}

/** Gives the running slot back once the work has ended (safe to call again: a second release finds nothing). */
export async function releaseRunning(
  ledger: QuotaLedger | undefined,
  kind: RunningKind,
  owner: Pick<RunningOwner, 'id' | 'ownerKeyId'>,
): Promise<void> {
  await ledger?.release(owner.ownerKeyId, holdId(kind, owner.id));
}
