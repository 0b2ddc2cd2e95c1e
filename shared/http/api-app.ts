import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import type { JobPlan, PlanLimits } from '../core/plan-request.js';
import { admitRequest } from '../core/admit-request.js';
import { RerankError, invalidRequest } from '../core/rerank-error.js';
import { ScoringTimedOutError } from '../core/scoring-timed-out-error.js';
import type { RerankOutcome } from '../core/rerank-outcome.js';
import type { RerankRequest } from '../core/rerank-request.js';
import type { RerankService } from '../core/rerank-service.js';
import type { RequestLimits } from '../core/validate-request.js';
import { readDialectRequest } from '../dialects/read-dialect-request.js';
import type { Dialect, DialectContext, DialectResponse } from '../dialects/dialect.js';
import { DIALECTS } from '../dialects/dialects.js';
import { parseJsonText } from '../dialects/wire-fields.js';
import type { JobCoordinator } from '../jobs/job-coordinator.js';
import type { JobRecord } from '../jobs/job-model.js';
import { logger } from '../observability/logger.js';
import { openApiDocument } from './openapi-document.js';
import { RateLimitedError } from '../auth/rate-limited-error.js';
import { recordRerankMetrics } from '../observability/record-rerank-metrics.js';
import { recordRequestFailure } from '../observability/record-request-failure.js';
import { DOCS_CONTENT_SECURITY_POLICY, docsAsset, docsPage, type DocsAsset } from './api-docs-page.js';
import { matchRoute, type BodyDialect, type RouteMatch } from './api-routes.js';
import { classifyFailure } from './classify-failure.js';
import type { Caller } from '../auth/caller.js';
import type { RequestAuthenticator } from '../auth/request-authenticator.js';
import { eventStreamResult } from './event-stream-result.js';
import { requireJsonContentType } from './require-json-content-type.js';
import { jobPollPath, jobView } from './job-view.js';
import { JobStillRunningError } from './job-still-running-error.js';
import { IDEMPOTENCY_HEADER, parseIdempotencyKey } from '../jobs/idempotency-key.js';
import { LAMBDA_MAX_RESPONSE_BYTES, lambdaResultBytes } from './response-size.js';
import { pageOutcome, resultPageRequest, type ResultPageRequest } from './job-result-page.js';
import type { BatchesApi } from './batches/batches-api.js';
import type { FilesApi } from './files/files-api.js';
import type { ServiceInfo } from './service-info.js';

export interface ApiAppDeps {
  readonly service: RerankService;
  readonly jobs: JobCoordinator;
  readonly auth: RequestAuthenticator;
  readonly limits: RequestLimits & { readonly maxBodyBytes: number; readonly maxPathChars?: number };
  /** When a request becomes a job, and its default batch size (see planRequest). */
  readonly plan: PlanLimits;
  /** How long a rerank endpoint waits for a job it queued before answering 202. */
  readonly jobOptions: { readonly waitMs: number; readonly pollMs?: number };
  /** Scoring deadline of a synchronous request (504 past it); absent = none. */
  readonly syncTimeoutMs?: number;
  readonly modelIds: readonly string[];
  /** `GET /info`'s body (service-info.ts), built at start-up. */
  readonly info?: ServiceInfo;
  /** `/v1/batches`; absent = those routes answer 404. */
  readonly batches?: BatchesApi;
  /** `/v1/files` and `/v1/uploads`; absent = those routes answer 404. */
  readonly files?: FilesApi;
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

/** A poll's body stays this far under Lambda's cap, leaving room for the headers added after it is built. */
const POLL_BUDGET_BYTES = LAMBDA_MAX_RESPONSE_BYTES - 64 * 1024;

/** What 202s and polls of running jobs suggest to clients as a polling pace. */
const RETRY_AFTER_SECONDS = '1';

/** OpenAI's model object, for `/v1/models` and `/v1/models/{id}`. */
const modelObject = (id: string) => ({ id, object: 'model', created: 0, owned_by: 'rerank-service' });

const json = (status: number, body: unknown, headers: Record<string, string> = {}): Result => ({
  statusCode: status,
  headers: { 'content-type': 'application/json', ...headers },
  body: JSON.stringify(body),
});

/** The docs page and its files: cacheable, and confined by a CSP to loading from this service. */
const docsResponse = (asset: DocsAsset): Result => ({
  statusCode: 200,
  headers: {
    'content-type': asset.contentType,
    'cache-control': 'public, max-age=3600',
    'content-security-policy': DOCS_CONTENT_SECURITY_POLICY,
    'x-content-type-options': 'nosniff',
  },
  body: asset.body,
});

/** A dialect's reply: its JSON body, or the server-sent events the client asked for. */
const reply = (formatted: DialectResponse, headers: Record<string, string>): Result =>
  formatted.events ? eventStreamResult(formatted.status, formatted.events, headers) : json(formatted.status, formatted.body, headers);

const header = (event: APIGatewayProxyEventV2, name: string): string | undefined => {
  const headers = event.headers ?? {};
  return headers[name] ?? Object.entries(headers).find(([k]) => k.toLowerCase() === name)?.[1];
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Where a request is going: its path below the stage, the route it matches and the dialect its errors use. */
function locate(event: APIGatewayProxyEventV2, maxPathChars?: number): { path: string; match: RouteMatch; dialect: Dialect; context: ApiContext } {
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
  const match = matchRoute(method, path, maxPathChars);
  const dialect = match.found === 'route' ? match.route.errorDialect : match.errorDialect;
  return { path, match, dialect, context };
}

/** A failure answered in the route's own error envelope (5xx texts never leak). */
function errorResult(dialect: Dialect, error: RerankError, context: DialectContext): Result {
  const headers: Record<string, string> = error instanceof RateLimitedError ? { 'retry-after': String(error.retryAfterSeconds) } : {};
  if (error instanceof JobStillRunningError) {
    // Not a failure of the service: the job runs on; Location says where its result will be.
    Object.assign(headers, { location: error.pollPath, 'retry-after': RETRY_AFTER_SECONDS, 'x-should-retry': 'false' });
  } else if (error.status >= 500) {
    logger.error('request failed', { requestId: context.requestId, kind: error.kind, error: error.cause instanceof Error ? error.cause : error });
  }
  const formatted = dialect.formatError(error, context);
  recordRequestFailure(error.kind, formatted.status);
  return json(formatted.status, formatted.body, headers);
}

/**
 * A failure outside ApiApp (the service could not start: configuration, models; or the local server
 * failed) answered as ApiApp answers one: in the envelope of the dialect the request was sent to.
 */
export function failureResult(event: APIGatewayProxyEventV2, cause: unknown): Result {
  const { dialect, context } = locate(event);
  const result = errorResult(dialect, classifyFailure(cause), context);
  return { ...result, headers: { ...result.headers, 'x-request-id': context.requestId } };
}

function bodyBytes(event: APIGatewayProxyEventV2, maxBytes: number): Buffer {
  const raw = event.body ?? '';
  const bytes = event.isBase64Encoded ? Buffer.from(raw, 'base64') : Buffer.from(raw, 'utf8');
  if (bytes.length > maxBytes) {
    throw new RerankError('payload_too_large', `request body is ${bytes.length} bytes; the limit is ${maxBytes} bytes`);
  }
  return bytes;
}

function bodyText(event: APIGatewayProxyEventV2, maxBytes: number): string {
  const bytes = bodyBytes(event, maxBytes);
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
    const { path, match, dialect, context } = locate(event, this.#deps.limits.maxPathChars);
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
    if (match.found === 'too-long') {
      throw new RerankError('uri_too_long', `the path is ${match.length} characters; this service serves paths of at most ${match.maxPathChars}`);
    }
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
    const caller: Caller = route.public ? { keyId: 'anonymous' } : await this.#deps.auth.authenticate(header(event, 'authorization'));
    switch (route.action.kind) {
      case 'health':
        return json(200, { status: 'ok' });
      case 'openapi':
        return json(200, openApiDocument(context.basePath));
      case 'docs':
        return docsResponse(docsPage());
      case 'docs-asset': {
        const asset = docsAsset(params['asset'] ?? '');
        if (!asset) throw new RerankError('not_found', `no docs file '${params['asset'] ?? ''}'`);
        return docsResponse(asset);
      }
      case 'models':
        return json(200, { object: 'list', data: this.#deps.modelIds.map(modelObject) });
      case 'model': {
        const id = params['id'] ?? '';
        if (!this.#deps.modelIds.includes(id)) {
          throw new RerankError('not_found', `no model '${id}'; this service serves ${this.#deps.modelIds.join(', ')}`, { param: 'model' });
        }
        return json(200, modelObject(id));
      }
      case 'info':
        if (!this.#deps.info) throw new RerankError('not_found', `no service info on ${path}`);
        return json(200, this.#deps.info);
      case 'index':
        return json(200, {
          service: 'rerank-service',
          docs: `${context.basePath}/docs`,
          openapi: `${context.basePath}/openapi.json`,
          health: `${context.basePath}/health`,
          models: `${context.basePath}/v1/models`,
          info: `${context.basePath}/info`,
        });
      case 'rerank':
        return this.#rerank(event, route.action.dialect, caller, context, route.action.byBody);
      case 'submit-job': {
        const dialect = route.action.dialect;
        const request = this.#read(this.#readJson(event), dialect);
        const plan = this.#admit(request, dialect, 'job');
        if (plan.kind !== 'job') throw new Error('planRequest answered sync for a job submission');
        const idempotencyKey = parseIdempotencyKey(header(event, IDEMPOTENCY_HEADER));
        return this.#accepted(await this.#submit(request, dialect, plan.job, caller, idempotencyKey), context);
      }
      case 'get-job':
        return this.#getJob(params['id'] ?? '', caller, context, resultPageRequest(event));
      case 'batches': {
        if (!this.#deps.batches) throw new RerankError('not_found', `batches are not enabled on ${path}`);
        const readBody = () => (requireJsonContentType(header(event, 'content-type')), parseJsonText(bodyText(event, this.#deps.limits.maxBodyBytes), 'request body'));
        return this.#deps.batches.handle(route.action.operation, { event, caller, params, readBody, header: (name) => header(event, name) });
      }
      case 'files': {
        if (!this.#deps.files) throw new RerankError('not_found', `files are not enabled on ${path}`);
        const maxBytes = this.#deps.limits.maxBodyBytes;
        return this.#deps.files.handle(route.action.operation, {
          event,
          caller,
          params,
          readBytes: () => bodyBytes(event, maxBytes),
          readJson: () => (requireJsonContentType(header(event, 'content-type')), parseJsonText(bodyText(event, maxBytes), 'request body')),
          header: (name) => header(event, name),
        });
      }
      case 'cancel-job':
        await this.#deps.jobs.cancel(params['id'] ?? '', caller.keyId);
        return this.#getJob(params['id'] ?? '', caller, context, { offset: 0, limit: undefined });
    }
  }

  #readJson(event: APIGatewayProxyEventV2): unknown {
    requireJsonContentType(header(event, 'content-type'));
    return parseJsonText(bodyText(event, this.#deps.limits.maxBodyBytes), 'request body');
  }

  #read(body: unknown, dialect: Dialect): RerankRequest {
    return readDialectRequest(dialect, body, this.#deps.limits);
  }

  async #rerank(event: APIGatewayProxyEventV2, endpointDialect: Dialect, caller: Caller, context: ApiContext, byBody: readonly BodyDialect[] = []): Promise<Result> {
    const body = this.#readJson(event);
    const claimed = byBody.find((alternative) => alternative.claims(body))?.dialect;
    if (!claimed) return this.#rerankIn(endpointDialect, body, event, caller, context);
    // From here on the body is the other dialect's: its errors are answered in that dialect's envelope.
    try {
      return await this.#rerankIn(claimed, body, event, caller, context);
    } catch (error) {
      return this.#error(claimed, classifyFailure(error), context);
    }
  }

  async #rerankIn(dialect: Dialect, body: unknown, event: APIGatewayProxyEventV2, caller: Caller, context: ApiContext): Promise<Result> {
    const request = this.#read(body, dialect);
    const plan = this.#admit(request, dialect, 'auto', {
      preferAsync: /\brespond-async\b/i.test(header(event, 'prefer') ?? ''),
      dialectQueueable: dialect.queueable !== false,
    });
    if (plan.kind === 'job') {
      // A request that becomes a job honours Idempotency-Key as a job submission does: a retry waits on the first job.
      const submitted = await this.#submit(request, dialect, plan.job, caller, parseIdempotencyKey(header(event, IDEMPOTENCY_HEADER)));
      if (plan.respondAsync) return this.#accepted(submitted, context);
      const job = await this.#waitForJob(submitted, caller);
      if (job.status === 'running') {
        throw new JobStillRunningError(job.id, `${context.basePath}${jobPollPath(job.id)}`, this.#deps.jobOptions.waitMs);
      }
      return this.#formatJob(job, dialect, context, request);
    }
    const outcome = request.documents.length === 0 ? emptyOutcome(context.requestId) : await this.#scoreWithDeadline(request);
    const formatted = dialect.formatOutcome(outcome, context, request);
    recordRerankMetrics(dialect.name, request.documents.length, outcome);
    return reply(formatted, {
      'server-timing': `scoring;dur=${outcome.timings.scoringMs.toFixed(1)}, total;dur=${outcome.timings.totalMs.toFixed(1)}`,
      ...(outcome.fallback ? { 'x-rerank-fallback': 'input-order' } : {}),
    });
  }

  /** Scores within syncTimeoutMs: past it the scorer stops at its next batch and the caller gets a 504 that says what to do. */
  async #scoreWithDeadline(request: RerankRequest): Promise<RerankOutcome> {
    const timeoutMs = this.#deps.syncTimeoutMs;
    if (timeoutMs === undefined) return this.#deps.service.rerank(request);
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(new ScoringTimedOutError(timeoutMs, request.documents.length)), timeoutMs);
    try {
      return await this.#deps.service.rerank(request, { signal: controller.signal });
    } finally {
      clearTimeout(timer);
    }
  }

  #admit(request: RerankRequest, dialect: Dialect, mode: 'auto' | 'job', options: { preferAsync?: boolean; dialectQueueable?: boolean } = {}) {
    return admitRequest({
      request,
      mode,
      resolveScorer: (model) => this.#deps.service.resolveScorer(model),
      limits: this.#deps.plan,
      names: dialect.paramNames(request),
      ...options,
    });
  }

  #submit(request: RerankRequest, dialect: Dialect, job: JobPlan, caller: Caller, idempotencyKey?: string): Promise<JobRecord> {
    const submission = {
      ...job,
      request,
      dialect: dialect.name,
      ownerKeyId: caller.keyId,
      ...(caller.maxConcurrentJobs === undefined ? {} : { maxConcurrentJobs: caller.maxConcurrentJobs }),
    };
    return this.#deps.jobs.submit(submission, idempotencyKey);
  }

  /** Waits below the API timeout for a fanned-out job; a job still running then is a 504 naming its poll URL. */
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
  async #formatJob(job: JobRecord, dialect: Dialect, context: ApiContext, request: RerankRequest): Promise<Result> {
    const outcome = await this.#deps.jobs.outcome(job);
    if (!outcome) throw new RerankError('upstream', `rerank job ${job.id} failed: ${job.error ?? 'unknown reason'}`);
    // The request only chooses the framing (chat `stream`); the job's outcome carries everything else.
    const formatted = dialect.formatOutcome(outcome, context, request);
    return reply(formatted, { 'x-rerank-job-id': job.id });
  }

  async #getJob(jobId: string, caller: Caller, context: ApiContext, page: ResultPageRequest): Promise<Result> {
    const job = await this.#deps.jobs.find(jobId, caller.keyId);
    if (!job) throw new RerankError('not_found', `no job '${jobId}' (jobs expire, and are visible only to the key that submitted them)`);
    const outcome = await this.#deps.jobs.outcome(job);
    if (!outcome) return json(200, jobView(job, undefined, context.basePath), job.status === 'running' ? { 'retry-after': RETRY_AFTER_SECONDS } : {});
    const dialect = DIALECTS[job.dialect];
    // A result too large for one answer is read in pages (`result_page.next_offset`), never refused with a 413.
    return pageOutcome(
      outcome,
      page,
      (slice, resultPage) => json(200, { ...jobView(job, dialect.formatOutcome(slice, context).body, context.basePath), result_page: resultPage }),
      (result) => lambdaResultBytes(result) <= POLL_BUDGET_BYTES,
    );
  }

  #error(dialect: Dialect, error: RerankError, context: DialectContext): Result {
    return errorResult(dialect, error, context);
  }
}
