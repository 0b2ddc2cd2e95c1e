import { planRequest, type PlanInput, type RequestPlan } from './plan-request.js';
import { enforceFieldBounds, enforceSyncLimits } from './request-bounds.js';

/**
 * The admission of a parsed, validated request for a mode: the per-field bounds, then the plan (sync or job, and
 * the job's model, activation, batch size and fusion), then - for a request that must run now - the synchronous
 * limits. Every route calls it: the rerank routes (`auto`), the jobs route and each batch line (`job`). Throws
 * RerankError naming the domain field in the dialect's spelling (`names`).
 */
export function admitRequest(input: PlanInput): RequestPlan {
  enforceFieldBounds(input.request, input.names);
  const plan = planRequest(input);
  // A request that cannot be split into a job runs now whatever its size: past the sync limits it is refused.
  if (plan.kind === 'sync') enforceSyncLimits(input.request, input.limits, input.names);
  return plan;
}
