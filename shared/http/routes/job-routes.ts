import type { Caller } from '../../auth/caller.js';
import type { JobPlan } from '../../core/plan-request.js';
import { RerankError } from '../../core/rerank-error.js';
import type { RerankRequest } from '../../core/rerank-request.js';
import type { Dialect } from '../../dialects/dialect.js';
import { DIALECTS } from '../../dialects/dialects.js';
import { admitBody } from '../../dialects/admit-body.js';
import { IDEMPOTENCY_HEADER, parseIdempotencyKey } from '../../engine/idempotency-key.js';
import type { JobRecord } from '../../jobs/job-model.js';
import type { ApiAppDeps } from '../api-app-deps.js';
import { pageOutcome, resultPageRequest } from '../job-result-page.js';
import { RETRY_AFTER_SECONDS } from '../poll-pace.js';
import { jobPollPath, jobView } from '../job-view.js';
import { LAMBDA_MAX_RESPONSE_BYTES, lambdaResultBytes } from '../response-size.js';
import { callerOf, header, json, type ApiContext, type ApiExchange, type ApiResult } from '../pipeline/api-exchange.js';
import { readJsonBody } from '../pipeline/read-body.js';
import { controlHeaders } from './control-headers.js';
import { reply } from './reply.js';

/** A poll's body stays this far under Lambda's cap, leaving room for the headers added after it is built. */
const POLL_BUDGET_BYTES = LAMBDA_MAX_RESPONSE_BYTES - 64 * 1024;

/**
 * Submits an admitted request as the caller's job; with an Idempotency-Key a retry gets the first job back. `join`: a
 * synchronous request without one joins the key's identical job that is running or just ended (its retries wait on
 * one job, not one each).
 */
export function submitJob(
  deps: ApiAppDeps,
  exchange: ApiExchange,
  request: RerankRequest,
  dialect: Dialect,
  job: JobPlan,
  join = false,
): Promise<JobRecord> {
  const caller: Caller = callerOf(exchange);
  const submission = {
    ...job,
    request,
    dialect: dialect.name,
    ownerKeyId: caller.keyId,
    ...(caller.maxConcurrentJobs === undefined ? {} : { maxConcurrentJobs: caller.maxConcurrentJobs }),
  };
  const idempotencyKey = parseIdempotencyKey(header(exchange.event, IDEMPOTENCY_HEADER));
  if (idempotencyKey === undefined && join) return deps.jobs.submitOrJoin(submission);
  return deps.jobs.submit(submission, idempotencyKey);
}

/** The served model a job runs on, named in a header as a synchronous answer names it (SDKs hide the body). */
const modelHeader = (job: JobRecord): Record<string, string> => ({ 'x-rerank-model': job.model });

/** 202 with the job and where to poll it. */
export function accepted(job: JobRecord, context: ApiContext): ApiResult {
  const pollPath = `${context.basePath}${jobPollPath(job.id)}`;
  return json(202, jobView(job, undefined, context.basePath), {
    location: pollPath,
    'retry-after': RETRY_AFTER_SECONDS,
    ...modelHeader(job),
  });
}

/** `POST /v1/rerank/jobs`: the body admitted as the rerank route admits it, in job mode. */
export async function submitJobRoute(deps: ApiAppDeps, exchange: ApiExchange, dialect: Dialect): Promise<ApiResult> {
  const { request, plan } = admitBody(
    deps,
    dialect,
    readJsonBody(exchange.event, deps.limits.maxBodyBytes, exchange.match.found === 'route' ? { route: exchange.match.route } : {}),
    'job',
  );
  if (plan.kind !== 'job') throw new Error('admitRequest answered sync for a job submission');
  return accepted(await submitJob(deps, exchange, request, dialect, plan.job), exchange.context);
}

/** A finished job answered on a dialect endpoint: the dialect's normal body, or its error envelope. */
export async function formatJob(
  deps: ApiAppDeps,
  job: JobRecord,
  dialect: Dialect,
  context: ApiContext,
  request: RerankRequest,
): Promise<ApiResult> {
  const outcome = await deps.jobs.outcome(job);
  if (!outcome) throw new RerankError('upstream', `rerank job ${job.id} failed: ${job.error ?? 'unknown reason'}`);
  // The request only chooses the framing (chat `stream`); the job's outcome carries everything else.
  return reply(dialect.formatOutcome({ ...outcome, queued: true }, context, request), {
    'x-rerank-job-id': job.id,
    ...modelHeader(job),
    ...controlHeaders(outcome),
  });
}

/** `GET /v1/rerank/jobs/{id}`: the job, and once it succeeded its result in its dialect, in pages that fit one answer. */
export async function getJobRoute(
  deps: ApiAppDeps,
  exchange: ApiExchange,
  jobId: string,
  page = resultPageRequest(exchange.event),
): Promise<ApiResult> {
  const { context } = exchange;
  const job = await deps.jobs.find(jobId, callerOf(exchange).keyId);
  if (!job) throw new RerankError('not_found', `no job '${jobId}' (jobs expire, and are visible only to the key that submitted them)`);
  const outcome = await deps.jobs.outcome(job);
  if (!outcome) {
    const pace: Record<string, string> = job.status === 'running' ? { 'retry-after': RETRY_AFTER_SECONDS } : {};
    return json(200, jobView(job, undefined, context.basePath), { ...pace, ...modelHeader(job) });
  }
  const dialect = DIALECTS[job.dialect];
  // A result too large for one answer is read in pages (`result_page.next_offset`), never refused with a 413.
  return pageOutcome(
    outcome,
    page,
    (slice, resultPage) =>
      json(
        200,
        { ...jobView(job, dialect.formatOutcome(slice, context).body, context.basePath), result_page: resultPage },
        { ...modelHeader(job), ...controlHeaders(outcome) },
      ),
    (result) => lambdaResultBytes(result) <= POLL_BUDGET_BYTES,
  );
}

/** `DELETE /v1/rerank/jobs/{id}`: a running job ends failed (cancelled); the answer is the job as a poll sees it. */
export async function cancelJobRoute(deps: ApiAppDeps, exchange: ApiExchange, jobId: string): Promise<ApiResult> {
  await deps.jobs.cancel(jobId, callerOf(exchange).keyId);
  return getJobRoute(deps, exchange, jobId, { offset: 0, limit: undefined });
}
