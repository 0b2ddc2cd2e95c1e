import type { JobPlan } from '../core/plan-request.js';
import type { RerankRequest } from '../core/rerank-request.js';
import type { DialectName } from '../dialects/dialect.js';

/** What a caller submits as a job: the planned request, its dialect and its owner. */
export interface JobSubmission extends JobPlan {
  readonly request: RerankRequest;
  readonly dialect: DialectName;
  readonly ownerKeyId: string;
  /** Jobs the owner may have running at once (on `quota`); undefined = unlimited. */
  readonly maxConcurrentJobs?: number;
}
