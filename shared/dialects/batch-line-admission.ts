import type { JobPlan } from '../core/plan-request.js';
import type { RerankRequest } from '../core/rerank-request.js';
import { admitBody, type BodyAdmissionDeps } from './admit-body.js';
import type { Dialect } from './dialect.js';
import { DIALECTS } from './dialects.js';

/**
 * The dialect a batch line's `url` names: the one whose declared paths include it, when it can be answered from a job.
 * A dialect served under an operator's prefix (Weaviate's) declares paths relative to it, so they name no line.
 */
export function batchLineDialect(url: string): Dialect | undefined {
  return Object.values(DIALECTS).find(
    (dialect) => dialect.underPrefix === undefined && dialect.paths.includes(url) && dialect.queueable !== false,
  );
}

/**
 * What a route does to a body before scoring it - the published schema, the dialect's parse, the core's
 * validation and bounds - then the job plan (a batch line always runs as chunks). The ONE place batch lines
 * are admitted, from the same functions as the synchronous path (it implements the batch engine's BatchAdmission).
 */
export function batchLineAdmission(deps: BodyAdmissionDeps): {
  dialectOf(url: string): Dialect | undefined;
  admit(url: string, body: unknown): { readonly dialect: Dialect; readonly request: RerankRequest; readonly plan: JobPlan };
} {
  return {
    dialectOf: batchLineDialect,
    admit(url, body) {
      const dialect = batchLineDialect(url);
      if (!dialect) throw new Error(`no batch route ${url}`);
      const { request, plan } = admitBody(deps, dialect, body, 'job');
      if (plan.kind !== 'job') throw new Error('planRequest answered sync for a batch line');
      return { dialect, request, plan: plan.job };
    },
  };
}
