import { admitBody, type BodyAdmissionDeps } from '../admit-body.js';
import type { AdmittedRequest, BatchAdmission } from '../../batches/batch-admission.js';
import type { Dialect } from '../../dialects/dialect.js';
import { API_ROUTES } from '../api-routes.js';

export type RouteAdmissionDeps = BodyAdmissionDeps;

/** The rerank routes a batch line may name: every POST route that ranks and whose dialect can be answered from a job. */
function batchDialect(url: string): Dialect | undefined {
  const route = API_ROUTES.find((r) => r.method === 'POST' && r.path === url && r.action.kind === 'rerank');
  if (!route || route.action.kind !== 'rerank' || route.action.dialect.queueable === false) return undefined;
  return route.action.dialect;
}

/**
 * What a route does to a body before scoring it - the published schema, the dialect's parse, the core's
 * validation and bounds - then the job plan (a batch line always runs as chunks). The ONE place batch lines
 * are admitted, from the same functions as the synchronous path.
 */
export function routeBodyAdmission(deps: RouteAdmissionDeps): BatchAdmission {
  return {
    dialectOf: batchDialect,
    admit(url: string, body: unknown): AdmittedRequest {
      const dialect = batchDialect(url);
      if (!dialect) throw new Error(`no batch route ${url}`);
      const { request, plan } = admitBody(deps, dialect, body, 'job');
      if (plan.kind !== 'job') throw new Error('planRequest answered sync for a batch line');
      return { dialect, request, plan: plan.job };
    },
  };
}
