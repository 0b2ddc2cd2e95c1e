import middy from '@middy/core';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import type { ApiAppDeps } from './api-app-deps.js';
import { classifyFailure } from './classify-failure.js';
import { openExchange, type ApiExchange, type ApiResult } from './pipeline/api-exchange.js';
import {
  accessLog,
  authenticate,
  errorEnvelope,
  NO_SNIFF,
  noSniffHeader,
  requestIdHeader,
  responseLimit,
} from './pipeline/api-middlewares.js';
import { errorResult } from './pipeline/error-result.js';
import { routeExchange } from './routes/route-exchange.js';

export type { ApiAppDeps } from './api-app-deps.js';

/** What middy is handed as the Lambda context when ApiApp runs inside another handler, or locally. */
const NO_LAMBDA_CONTEXT = {} as Context;

/**
 * The API's whole behaviour over API Gateway (HTTP API, payload v2) events; the local server feeds it the same
 * events, so there is one code path. One concern per middleware (pipeline/api-middlewares.ts): the access log, the
 * request id header, the response size limit, the error envelope and authentication wrap the router
 * (routes/route-exchange.ts), whose routes each live in their own file.
 */
export class ApiApp {
  readonly #deps: ApiAppDeps;
  readonly #handler: middy.MiddyfiedHandler<ApiExchange, ApiResult>;

  constructor(deps: ApiAppDeps) {
    this.#deps = deps;
    // No early timeout: the API function's own deadline is enforced by its handler (and by the sync scoring deadline).
    this.#handler = middy<ApiExchange, ApiResult>({ timeoutEarlyInMillis: 0 })
      .use(accessLog())
      .use(requestIdHeader())
      .use(noSniffHeader())
      .use(responseLimit())
      .use(errorEnvelope())
      .use(authenticate(deps.auth))
      .handler((exchange) => routeExchange(this.#deps, exchange));
  }

  handle(event: APIGatewayProxyEventV2): Promise<ApiResult> {
    return this.#handler(openExchange(event, this.#deps.limits.maxPathChars), NO_LAMBDA_CONTEXT);
  }
}

/**
 * A failure outside ApiApp (the service could not start: configuration, models; or the local server
 * failed) answered as ApiApp answers one: in the envelope of the dialect the request was sent to.
 */
export function failureResult(event: APIGatewayProxyEventV2, cause: unknown): ApiResult {
  const { dialect, context } = openExchange(event);
  const result = errorResult(dialect, classifyFailure(cause), context);
  return { ...result, headers: { ...result.headers, ...NO_SNIFF, 'x-request-id': context.requestId } };
}
