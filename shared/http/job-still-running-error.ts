import { RerankError } from '../core/rerank-error.js';
import { RETRY_AFTER_SECONDS } from './poll-pace.js';

/**
 * A request that did not ask to run asynchronously, whose job outlived the wait: never a 2xx without
 * results (SDKs would report success with nothing in it). 504 in every dialect's own envelope, naming the
 * job's poll URL; it carries `Location` and `Retry-After`, and `x-should-retry: false` so clients that
 * honour it poll instead of submitting the same work again.
 */
export class JobStillRunningError extends RerankError {
  readonly pollPath: string;

  constructor(jobId: string, pollPath: string, waitedMs: number) {
    super(
      'still_running',
      `rerank job ${jobId} is still running after ${Math.round(waitedMs / 1000)} s; its result will be at GET ${pollPath} ` +
        '(send "Prefer: respond-async" or use POST /v1/rerank/jobs to get the job at once)',
      // Not a failure of the service: the job runs on; Location says where its result will be.
      { headers: { location: pollPath, 'retry-after': RETRY_AFTER_SECONDS, 'x-should-retry': 'false' } },
    );
    this.name = 'JobStillRunningError';
    this.pollPath = pollPath;
  }
}
