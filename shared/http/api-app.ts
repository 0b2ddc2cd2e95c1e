import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { needsQueuedJob, type SyncLimits } from '../core/plan-request.js';
import { RerankError, invalidRequest } from '../core/rerank-error.js';
import type { RerankOutcome } from '../core/rerank-outcome.js';
import type { RerankRequest } from '../core/rerank-request.js';
import { defaultActivation, type RerankService } from '../core/rerank-service.js';
import { validateRerankRequest, type RequestLimits } from '../core/validate-request.js';
import type { Dialect, DialectContext } from '../dialects/dialect.js';
import { DIALECTS } from '../dialects/dialects.js';
import { parseJsonText } from '../dialects/wire-fields.js';
import type { JobCoordinator } from '../jobs/job-coordinator.js';
import type { JobRecord } from '../jobs/job-model.js';
import { logger } from '../observability/logger.js';
import { openApiDocument } from '../openapi/openapi-document.js';
import { validateRequestBody } from '../openapi/request-body-validator.js';
import { isSplittableHybrid } from '../scoring/hybrid/index.js';
import type { JobSlots } from '../auth/job-slots.js';
import { RateLimitedError } from '../auth/rate-limited-error.js';
import { recordRerankMetrics } from '../observability/record-rerank-metrics.js';
import { matchRoute, type RouteMatch } from './api-routes.js';
import { classifyFailure } from './classify-failure.js';
import type { Caller } from './bearer-auth.js';
import type { AuthenticatedCaller, RequestAuthenticator } from './request-authenticator.js';
import { IDEMPOTENCY_HEADER, parseIdempotencyKey } from '../jobs/idempotency-key.js';
import { jobPollPath, jobView } from './job-view.js';
import { LAMBDA_MAX_RESPONSE_BYTES, lambdaResultBytes } from './response-size.js';

export interface ApiAppDeps {
  readonly service: RerankService;
  readonly jobs: JobCoordinator;
  readonly auth: RequestAuthenticator;
  /** Concurrent jobs per key; absent = unlimited. */
  readonly jobSlots?: JobSlots;
  readonly limits: RequestLimits & SyncLimits & { readonly maxBodyBytes: number };
  readonly jobOptions: { readonly defaultBatchSize: number; readonly waitMs: number; readonly pollMs?: number };
  readonly modelIds: readonly string[];
}

type Result = APIGatewayProxyStructuredResultV2;

/** A DialectContext plus where the API is mounted (`/prod` behind a named stage, else empty). */
interface ApiContext extends DialectContext {
  readonly basePath: string;
}

/** Nothing to score: what dialects that accept an empty candidate list format. */
const emptyOutcome = (id: string): RerankOutcome => ({
  id,
  model: '',
  results: [],
  usage: { totalTokens: 0 },
  timings: { scoringMs: 0, totalMs: 0 },
  rawScores: [],
});

/** What 202s and polls of running jobs suggest to clients as a polling pace. */
const RETRY_AFTER_SECONDS = '1';

const json = (status: number, body: unknown, headers: Record<string, string> = {}): Result => ({
  statusCode: status,
  headers: { 'content-type': 'application/json', ...headers },
  body: JSON.stringify(body),
});

const header = (event: APIGatewayProxyEventV2, name: string): string | undefined => {
  const headers = event.headers ?? {};
  return headers[name] ?? Object.entries(headers).find(([k]) => k.toLowerCase() === name)?.[1];
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function bodyText(event: APIGatewayProxyEventV2, maxBytes: number): string {
  const raw = event.body ?? '';
  const bytes = event.isBase64Encoded ? Buffer.from(raw, 'base64') : Buffer.from(raw, 'utf8');
  if (bytes.length > maxBytes) {
    throw new RerankError('payload_too_large', `request body is ${bytes.length} bytes; the limit is ${maxBytes} bytes`);
  }
  if (bytes.length === 0) throw invalidRequest('request body is empty; a JSON object is expected', 'body');
  return bytes.toString('utf8');
}

/**
 * The API Lambda's whole behaviour over API Gateway (HTTP API, payload v2) events. The local dev
 * server feeds it the same events, so there is one code path.
 */
export class ApiApp {
  readonly #deps: ApiAppDeps;

  constructor(deps: ApiAppDeps) {
    this.#deps = deps;
  }

  async handle(event: APIGatewayProxyEventV2): Promise<Result> {
    const method = event.requestContext.http.method;
    // Behind a named API Gateway stage the path carries `/<stage>`; routes and poll URLs are relative to it.
    const stage = event.requestContext.stage;
    const basePath = stage && stage !== '$default' && event.rawPath.startsWith(`/${stage}/`) ? `/${stage}` : '';
    const path = event.rawPath.slice(basePath.length);
    const context: ApiContext = {
      requestId: event.requestContext.requestId,
      now: Math.floor((event.requestContext.timeEpoch ?? Date.now()) / 1000),
      basePath,
    };
    const match = matchRoute(method, path);
    const dialect = match.found === 'route' ? match.route.errorDialect : match.errorDialect;
    const started = performance.now();
    let response: Result;
    try {
      response = await this.#dispatch(event, path, match, context);
    } catch (error) {
      response = this.#error(dialect, classifyFailure(error), context);
    }
    response = this.#withinResponseLimit({ ...response, headers: { ...response.headers, 'x-request-id': context.requestId } }, dialect, context);
    logger.info('request', {
      method,
      path,
      status: response.statusCode,
      requestId: context.requestId,
      durationMs: Math.round(performance.now() - started),
    });
    return response;
  }

  /** An answer Lambda could not return (over 6 MB) is a 413 that says how to shrink it, here as on AWS. */
  #withinResponseLimit(response: Result, dialect: Dialect, context: DialectContext): Result {
    const bytes = lambdaResultBytes(response);
    if (bytes <= LAMBDA_MAX_RESPONSE_BYTES) return response;
    const error = new RerankError(
      'payload_too_large',
      `the response would be ${bytes} bytes, over the ${LAMBDA_MAX_RESPONSE_BYTES}-byte limit of one answer: ` +
        'set return_documents to false (you have the documents) or lower top_n',
      { param: 'return_documents' },
    );
    const refused = this.#error(dialect, error, context);
    return { ...refused, headers: { ...refused.headers, 'x-request-id': context.requestId } };
  }

  async #dispatch(event: APIGatewayProxyEventV2, path: string, match: RouteMatch, context: ApiContext): Promise<Result> {
    if (match.found === 'none') throw new RerankError('not_found', `no route for ${event.requestContext.http.method} ${path}`);
    if (match.found === 'wrong-method') {
      const error = new RerankError(
        'method_not_allowed',
        `${event.requestContext.http.method} is not allowed on ${path}; use ${match.allowed.join(', ')}`,
      );
      const r = this.#error(match.errorDialect, error, context);
      return { ...r, headers: { ...r.headers, allow: match.allowed.join(', ') } };
    }
    const { route, params } = match;
    const caller: AuthenticatedCaller = route.public ? { keyId: 'anonymous' } : await this.#deps.auth.authenticate(header(event, 'authorization'));
    switch (route.action.kind) {
      case 'health':
        return json(200, { status: 'ok' });
      case 'openapi':
        return json(200, openApiDocument(context.basePath));
      case 'models':
        return json(200, {
          object: 'list',
          data: this.#deps.modelIds.map((id) => ({ id, object: 'model', created: 0, owned_by: 'rerank-service' })),
        });
      case 'rerank':
        return this.#rerank(event, route.action.dialect, caller, context);
      case 'submit-job': {
        const { dialect, request } = this.#parse(event, route.action.dialect);
        const idempotencyKey = parseIdempotencyKey(header(event, IDEMPOTENCY_HEADER));
        return this.#accepted(await this.#submit(request, dialect, caller, idempotencyKey), context);
      }
      case 'get-job':
        return this.#getJob(params['id'] ?? '', caller, context);
      case 'cancel-job':
        await this.#deps.jobs.cancel(params['id'] ?? '', caller.keyId);
        return this.#getJob(params['id'] ?? '', caller, context);
    }
  }

  #parse(event: APIGatewayProxyEventV2, dialect: Dialect): { dialect: Dialect; request: RerankRequest } {
    const body = parseJsonText(bodyText(event, this.#deps.limits.maxBodyBytes), 'request body');
    // The published schema decides what is well-formed; the reader then maps fields and checks what it cannot say.
    validateRequestBody(dialect.requestSchema, body);
    const allowEmptyDocuments = dialect.acceptsEmptyDocuments === true;
    return { dialect, request: validateRerankRequest(dialect.parse(body), dialect.paramNames, this.#deps.limits, { allowEmptyDocuments }) };
  }

  async #rerank(event: APIGatewayProxyEventV2, endpointDialect: Dialect, caller: AuthenticatedCaller, context: ApiContext): Promise<Result> {
    const { dialect, request } = this.#parse(event, endpointDialect);
    // Prefer is a preference (RFC 7240): requests whose scores cannot be computed chunk by chunk are answered now.
    const queueable = dialect.queueable !== false && this.#queueable(request);
    const respondAsync = queueable && /\brespond-async\b/i.test(header(event, 'prefer') ?? '');
    if (respondAsync || (queueable && needsQueuedJob(request, this.#deps.limits))) {
      const submitted = await this.#submit(request, dialect, caller);
      if (respondAsync) return this.#accepted(submitted, context);
      const job = await this.#waitForJob(submitted, caller);
      if (job.status === 'running') return this.#accepted(job, context);
      return this.#formatJob(job, dialect, context);
    }
    const outcome = request.documents.length === 0 ? emptyOutcome(context.requestId) : await this.#deps.service.rerank(request);
    const formatted = dialect.formatOutcome(outcome, context, request);
    recordRerankMetrics(dialect.name, request.documents.length, outcome);
    return json(formatted.status, formatted.body, {
      'server-timing': `scoring;dur=${outcome.timings.scoringMs.toFixed(1)}, total;dur=${outcome.timings.totalMs.toFixed(1)}`,
      ...(outcome.fallback ? { 'x-rerank-fallback': 'input-order' } : {}),
    });
  }

  /**
   * Only plain model scoring splits into independent chunks: per-document scorers, or a hybrid whose
   * lexical part waits for the merge. Strategies and upstreams score the whole set at once.
   */
  #queueable(request: RerankRequest): boolean {
    const plain = (request.strategy ?? 'default') === 'default' && !request.upstream && request.maxChunksPerDoc === undefined;
    if (!plain) return false;
    const scorer = this.#deps.service.resolveScorer(request.model);
    return !scorer.candidateRelative || isSplittableHybrid(scorer);
  }

  async #submit(request: RerankRequest, dialect: Dialect, caller: AuthenticatedCaller, idempotencyKey?: string): Promise<JobRecord> {
    if (!this.#queueable(request)) {
      throw invalidRequest(
        'this request cannot run as a job: only the default strategy with a model whose scores do not depend on the other candidates can be split into chunks',
        'rerank_strategy',
      );
    }
    const scorer = this.#deps.service.resolveScorer(request.model);
    const submission = {
      request,
      dialect: dialect.name,
      ownerKeyId: caller.keyId,
      model: scorer.id,
      activation: request.activation ?? defaultActivation(scorer),
      batchSize: request.batchSize ?? this.#deps.jobOptions.defaultBatchSize,
      ...(isSplittableHybrid(scorer) ? { fusion: { chunkModel: scorer.model.id } } : {}),
    };
    // A retry returns the first job before taking a job slot.
    const first = idempotencyKey === undefined ? undefined : await this.#deps.jobs.findIdempotent(submission, idempotencyKey);
    if (first) return first;
    const { jobSlots } = this.#deps;
    const max = caller.maxConcurrentJobs;
    if (jobSlots && max !== undefined && !(await jobSlots.acquire(caller.keyId, max))) {
      throw new RerankError('rate_limited', `this key already has ${max} jobs running; wait for one to finish`);
    }
    try {
      if (idempotencyKey === undefined) return await this.#deps.jobs.submit(submission);
      const { job, replayed } = await this.#deps.jobs.submitIdempotent(submission, idempotencyKey);
      // A retry that raced the first submit holds no job of its own: give its slot back.
      if (replayed && jobSlots && max !== undefined) await jobSlots.release(caller.keyId);
      return job;
    } catch (error) {
      if (jobSlots && max !== undefined) await jobSlots.release(caller.keyId);
      throw error;
    }
  }

  /** Waits below the API timeout for a fanned-out job; the caller answers 202 if it is still running. */
  async #waitForJob(job: JobRecord, caller: Caller): Promise<JobRecord> {
    const deadline = performance.now() + this.#deps.jobOptions.waitMs;
    let current = job;
    while (current.status === 'running' && performance.now() < deadline) {
      await sleep(Math.min(this.#deps.jobOptions.pollMs ?? 100, Math.max(0, deadline - performance.now())));
      current = (await this.#deps.jobs.find(job.id, caller.keyId)) ?? current;
    }
    return current;
  }

  #accepted(job: JobRecord, context: ApiContext): Result {
    const pollPath = `${context.basePath}${jobPollPath(job.id)}`;
    return json(202, jobView(job, undefined, context.basePath), { location: pollPath, 'retry-after': RETRY_AFTER_SECONDS });
  }

  /** A finished job answered on a dialect endpoint: the dialect's normal body, or its error envelope. */
  async #formatJob(job: JobRecord, dialect: Dialect, context: ApiContext): Promise<Result> {
    const outcome = await this.#deps.jobs.outcome(job);
    if (!outcome) throw new RerankError('upstream', `rerank job ${job.id} failed: ${job.error ?? 'unknown reason'}`);
    const formatted = dialect.formatOutcome(outcome, context);
    return json(formatted.status, formatted.body, { 'x-rerank-job-id': job.id });
  }

  async #getJob(jobId: string, caller: Caller, context: ApiContext): Promise<Result> {
    const job = await this.#deps.jobs.find(jobId, caller.keyId);
    if (!job) throw new RerankError('not_found', `no job '${jobId}' (jobs expire, and are visible only to the key that submitted them)`);
    const outcome = await this.#deps.jobs.outcome(job);
    const dialect = DIALECTS[job.dialect];
    const result = outcome ? dialect.formatOutcome(outcome, context).body : undefined;
    return json(200, jobView(job, result, context.basePath), job.status === 'running' ? { 'retry-after': RETRY_AFTER_SECONDS } : {});
  }

  #error(dialect: Dialect, error: RerankError, context: DialectContext): Result {
    const headers: Record<string, string> = error instanceof RateLimitedError ? { 'retry-after': String(error.retryAfterSeconds) } : {};
    if (error.status >= 500) {
      logger.error('request failed', { requestId: context.requestId, kind: error.kind, error: error.cause instanceof Error ? error.cause : error });
    }
    const formatted = dialect.formatError(error, context);
    return json(formatted.status, formatted.body, headers);
  }
}
