import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import type { Caller } from '../../auth/caller.js';
import type { Dialect, DialectContext } from '../../dialects/dialect.js';
import { claimedByHeaders, matchRoute, type RouteMatch } from '../api-routes.js';

export type ApiResult = APIGatewayProxyStructuredResultV2;

/** A DialectContext plus where the API is mounted (`/prod` behind a named stage, else empty). */
export interface ApiContext extends DialectContext {
  readonly basePath: string;
}

/**
 * One HTTP exchange as it passes the API's middlewares: the event, where it is going, and what the middlewares
 * learn on the way (the caller once authenticated). `dialect` is whose envelope errors are answered in: the
 * route's, or another dialect on a shared path that the headers claim (at once) or the body claims (once read).
 */
export interface ApiExchange {
  readonly event: APIGatewayProxyEventV2;
  readonly method: string;
  /** The path below the stage. */
  readonly path: string;
  readonly match: RouteMatch;
  readonly context: ApiContext;
  readonly started: number;
  dialect: Dialect;
  caller?: Caller;
}

/** A header by name, case-insensitively (API Gateway lower-cases them; local callers may not). */
export const header = (event: APIGatewayProxyEventV2, name: string): string | undefined => {
  const headers = event.headers ?? {};
  return headers[name] ?? Object.entries(headers).find(([k]) => k.toLowerCase() === name)?.[1];
};

/** Where a request is going: its path below the stage, the route it matches and the dialect its errors use. */
export function openExchange(event: APIGatewayProxyEventV2, maxPathChars?: number): ApiExchange {
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
  const dialect =
    match.found === 'route'
      ? (claimedByHeaders(match.route, (name) => header(event, name)) ?? match.route.errorDialect)
      : match.errorDialect;
  return { event, method, path, match, context, started: performance.now(), dialect };
}

export const json = (status: number, body: unknown, headers: Record<string, string> = {}): ApiResult => ({
  statusCode: status,
  headers: { 'content-type': 'application/json', ...headers },
  body: JSON.stringify(body),
});

/** The caller the authenticate middleware admitted (routes past it always have one). */
export function callerOf(exchange: ApiExchange): Caller {
  if (!exchange.caller) throw new Error(`no caller on ${exchange.method} ${exchange.path}: the authenticate middleware did not run`);
  return exchange.caller;
}
