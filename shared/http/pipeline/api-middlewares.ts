import type { RequestAuthenticator } from '../../auth/request-authenticator.js';
import { authorizationOf } from '../../auth/presented-key.js';
import { RerankError } from '../../core/rerank-error.js';
import { logger } from '../../observability/logger.js';
import { LAMBDA_MAX_RESPONSE_BYTES, lambdaResultBytes } from '../response-size.js';
import { classifyFailure } from '../classify-failure.js';
import { describeRefusal } from '../describe-refusal.js';
import { header } from './api-exchange.js';
import type { ApiMiddleware } from './api-middleware.js';
import { errorResult } from './error-result.js';

/**
 * The routes' callers: a public route lets anyone in; every other route needs a key (operator, client or open
 * access), checked before the body is read or parsed. A path that matched no route is refused by the router.
 */
export const authenticate = (auth: RequestAuthenticator): ApiMiddleware => ({
  name: 'authenticate',
  before: async ({ event: exchange }) => {
    const { match } = exchange;
    if (match.found !== 'route') return;
    if (match.route.public) {
      exchange.caller = { keyId: 'anonymous' };
      return;
    }
    const read = (name: string) => header(exchange.event, name);
    try {
      exchange.caller = await auth.authenticate(authorizationOf(read));
    } catch (error) {
      throw describeRefusal(error, { dialect: exchange.dialect, match, header: read });
    }
  },
});

/** Any failure becomes the answer, in the envelope of the dialect the exchange is in (see errorResult). */
export const errorEnvelope = (): ApiMiddleware => ({
  name: 'error-envelope',
  onError: (request) => {
    const exchange = request.event;
    request.response = errorResult(exchange.dialect, classifyFailure(request.error), exchange.context);
  },
});

/**
 * An answer Lambda could not return (over 6 MB) is a 413 that says how to shrink it, here as on AWS. Every answer passes
 * it, failures too: middy skips `after` for a thrown error, so the check is also an `onError` (after the envelope's).
 */
export const responseLimit = (): ApiMiddleware => {
  const check: NonNullable<ApiMiddleware['after']> = (request) => {
    const response = request.response;
    if (!response) return;
    const bytes = lambdaResultBytes(response);
    if (bytes <= LAMBDA_MAX_RESPONSE_BYTES) return;
    const error = new RerankError(
      'payload_too_large',
      `the response would be ${bytes} bytes, over the ${LAMBDA_MAX_RESPONSE_BYTES}-byte limit of one answer: ` +
        'set return_documents to false (you have the documents), lower top_n, or send the request with ' +
        "Prefer: respond-async and read the job's result page by page (GET /v1/rerank/jobs/{id}?offset=&limit=)",
      { param: 'return_documents' },
    );
    request.response = errorResult(request.event.dialect, error, request.event.context);
  };
  return { name: 'response-limit', after: check, onError: check };
};

/** Every answer, success or failure, names its request id (the id logs and error bodies carry). */
export const requestIdHeader = (): ApiMiddleware => {
  const stamp: NonNullable<ApiMiddleware['after']> = (request) => {
    if (request.response)
      request.response = { ...request.response, headers: { ...request.response.headers, 'x-request-id': request.event.context.requestId } };
  };
  return { name: 'request-id-header', after: stamp, onError: stamp };
};

/** Browsers must read every answer as its declared type: some echo a path or a model name, none is a page to sniff. */
export const NO_SNIFF = { 'x-content-type-options': 'nosniff' } as const;

/** `X-Content-Type-Options: nosniff` on every answer, success or failure. */
export const noSniffHeader = (): ApiMiddleware => {
  const stamp: NonNullable<ApiMiddleware['after']> = (request) => {
    if (request.response) request.response = { ...request.response, headers: { ...request.response.headers, ...NO_SNIFF } };
  };
  return { name: 'no-sniff-header', after: stamp, onError: stamp };
};

/** One access-log line per exchange: method, path, status and duration (never a header or a body). */
export const accessLog = (): ApiMiddleware => {
  const log: NonNullable<ApiMiddleware['after']> = ({ event: exchange, response }) => {
    logger.info('request', {
      method: exchange.method,
      path: exchange.path,
      status: response?.statusCode,
      requestId: exchange.context.requestId,
      durationMs: Math.round(performance.now() - exchange.started),
    });
  };
  return { name: 'access-log', after: log, onError: log };
};
