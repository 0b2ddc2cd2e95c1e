import type { JobPlan } from '../core/plan-request.js';
import type { RerankRequest } from '../core/rerank-request.js';
import type { Dialect } from '../dialects/dialect.js';

/** A line's body as the route admits it: its dialect, the request it parsed into and the request planned as a job. */
export interface AdmittedRequest {
  readonly dialect: Dialect;
  readonly request: RerankRequest;
  readonly plan: JobPlan;
}

/**
 * The admission of a batch line's body (every line goes through it): what the route `url` does to a body it receives (its dialect parses,
 * the core validates and bounds it), then plans it as a job (chunkable model). The HTTP layer builds it from
 * the same functions as the synchronous path, so a line is accepted exactly when the route would accept it.
 * Throws RerankError for a body the route refuses.
 */
export interface BatchAdmission {
  /** The dialect of a rerank route of this service, or undefined when `url` is none. */
  dialectOf(url: string): Dialect | undefined;
  admit(url: string, body: unknown): AdmittedRequest;
}
