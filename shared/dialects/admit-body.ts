import { admitRequest } from '../core/admit-request.js';
import type { PlanLimits, RequestPlan } from '../core/plan-request.js';
import type { RerankRequest } from '../core/rerank-request.js';
import type { RerankService } from '../core/rerank-service.js';
import type { RequestLimits } from '../core/validate-request.js';
import type { Dialect } from './dialect.js';
import { readDialectRequest } from './read-dialect-request.js';

export interface BodyAdmissionDeps {
  readonly service: Pick<RerankService, 'resolveScorer'>;
  readonly limits: RequestLimits;
  readonly plan: PlanLimits;
}

/**
 * A body through a route's whole admission: read as its dialect reads it (readDialectRequest), then admitted for
 * the mode (admitRequest). The rerank routes, the jobs route and every batch line call this one function.
 */
export function admitBody(
  deps: BodyAdmissionDeps,
  dialect: Dialect,
  body: unknown,
  mode: 'auto' | 'job',
  options: { readonly preferAsync?: boolean } = {},
): { readonly request: RerankRequest; readonly plan: RequestPlan } {
  const request = readDialectRequest(dialect, body, deps.limits);
  const plan = admitRequest({
    request,
    mode,
    resolveScorer: (model) => deps.service.resolveScorer(model),
    limits: deps.plan,
    names: dialect.paramNames(request),
    dialectQueueable: dialect.queueable !== false,
    ...options,
  });
  return { request, plan };
}
