import type { RerankOutcome } from '../../core/rerank-outcome.js';
import type { RerankRequest } from '../../core/rerank-request.js';
import { ScoringTimedOutError } from '../../core/scoring-timed-out-error.js';
import type { Dialect } from '../../dialects/dialect.js';
import { admitBody } from '../../dialects/admit-body.js';
import { recordRerankMetrics } from '../../observability/record-rerank-metrics.js';
import type { ApiAppDeps } from '../api-app-deps.js';
import { claimedByHeaders, type BodyDialect } from '../api-routes.js';
import { JobStillRunningError } from '../job-still-running-error.js';
import { jobPollPath } from '../job-view.js';
import { callerOf, header, type ApiExchange, type ApiResult } from '../pipeline/api-exchange.js';
import { readJsonBody } from '../pipeline/read-body.js';
import { accepted, formatJob, submitJob } from './job-routes.js';
import { controlHeaders } from './control-headers.js';
import { reply } from './reply.js';

/** Nothing to score: what dialects that accept an empty candidate list format. */
const emptyOutcome = (id: string): RerankOutcome => ({
  id,
  model: '',
  results: [],
  usage: { totalTokens: 0 },
  timings: { scoringMs: 0, totalMs: 0 },
  rawScores: [],
});

/** The model a path names (Bedrock's `/model/{model}/invoke`) as the body's `model`; a body that is no object is left to be refused. */
const withPathModel = (body: unknown, model: string | undefined): unknown =>
  typeof body === 'object' && body !== null && !Array.isArray(body) && model !== undefined ? { ...body, model } : body;

/** Scores within syncTimeoutMs: past it the scorer stops at its next batch and the caller gets a 504 that says what to do. */
async function scoreWithDeadline(
  deps: ApiAppDeps,
  request: RerankRequest,
  dialect: Dialect,
  unqueueable: string | undefined,
): Promise<RerankOutcome> {
  const timeoutMs = deps.syncTimeoutMs;
  const names = dialect.paramNames(request);
  if (timeoutMs === undefined) return deps.service.rerank(request, { names });
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new ScoringTimedOutError(timeoutMs, request.documents.length, unqueueable)), timeoutMs);
  try {
    return await deps.service.rerank(request, { signal: controller.signal, names });
  } finally {
    clearTimeout(timer);
  }
}

/**
 * A dialect's rerank route: the body read and admitted, then scored now, or run as a job - answered 202 at once
 * when the client prefers, else waited for below the API timeout (a job still running then is a 504 naming its
 * poll URL). A path shared by several dialects is told apart by the headers (`byHeaders`), else by the body
 * (`byBody`); from then on the exchange is in the claimed dialect, errors included.
 */
export async function rerankRoute(
  deps: ApiAppDeps,
  exchange: ApiExchange,
  endpointDialect: Dialect,
  byBody: readonly BodyDialect[] = [],
): Promise<ApiResult> {
  const { event, context } = exchange;
  const byHeaders = exchange.match.found === 'route' ? claimedByHeaders(exchange.match.route, (name) => header(event, name)) : undefined;
  const sent = readJsonBody(event, deps.limits.maxBodyBytes, {
    alsoAs: endpointDialect.jsonBodyAlsoAs ?? [],
    ...(exchange.match.found === 'route' ? { route: exchange.match.route } : {}),
  });
  const dialect = byHeaders ?? byBody.find((alternative) => alternative.claims(sent))?.dialect ?? endpointDialect;
  const body = dialect.modelInPath
    ? withPathModel(sent, exchange.match.found === 'route' ? exchange.match.params['model'] : undefined)
    : sent;
  exchange.dialect = dialect;
  const { request, plan } = admitBody(deps, dialect, body, 'auto', {
    preferAsync: /\brespond-async\b/i.test(header(event, 'prefer') ?? ''),
  });
  if (plan.kind === 'job') {
    // A request that becomes a job honours Idempotency-Key as a job submission does: a retry waits on the first job.
    // Without one, a synchronous request joins its key's identical job, so an SDK resending the 504 starts no other.
    const submitted = await submitJob(deps, exchange, request, dialect, plan.job, !plan.respondAsync);
    if (plan.respondAsync) return accepted(submitted, context);
    const { waitMs, pollMs } = deps.jobOptions;
    const job = await deps.jobs.waitFor(submitted, callerOf(exchange).keyId, waitMs, pollMs);
    if (job.status === 'running') throw new JobStillRunningError(job.id, `${context.basePath}${jobPollPath(job.id)}`, waitMs);
    return formatJob(deps, job, dialect, context, request);
  }
  const outcome =
    request.documents.length === 0 ? emptyOutcome(context.requestId) : await scoreWithDeadline(deps, request, dialect, plan.unqueueable);
  const formatted = dialect.formatOutcome(outcome, context, request);
  recordRerankMetrics(dialect.name, request.documents.length, outcome);
  return reply(formatted, {
    'server-timing': `scoring;dur=${outcome.timings.scoringMs.toFixed(1)}, total;dur=${outcome.timings.totalMs.toFixed(1)}`,
    ...(outcome.fallback ? { 'x-rerank-fallback': 'input-order' } : {}),
    // SDKs hide the body's `model`; a header names the served model even when the request asked by an alias.
    ...(outcome.model ? { 'x-rerank-model': outcome.model } : {}),
    ...controlHeaders(outcome),
  });
}
