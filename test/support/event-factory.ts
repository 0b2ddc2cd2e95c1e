import { randomUUID } from 'node:crypto';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';

export interface ApiEventInit {
  readonly method?: string;
  /** The raw path, query string included if any (`/v1/rerank?x=1`). */
  readonly path: string;
  /** Sent as is (base64 text when `isBase64Encoded`); see `json` for a JSON value. */
  readonly body?: string;
  /** JSON-encoded into the body; ignored when `body` is given. */
  readonly json?: unknown;
  readonly isBase64Encoded?: boolean;
  readonly headers?: Readonly<Record<string, string>>;
  readonly requestId?: string;
}

/**
 * The HTTP API (payload v2.0) event API Gateway sends, in the shape `toApiGatewayEvent` builds from a
 * Node request, without a socket: for driving `ApiApp.handle` in-process.
 */
export function apiGatewayEvent(init: ApiEventInit): APIGatewayProxyEventV2 {
  const queryAt = init.path.indexOf('?');
  const rawPath = queryAt < 0 ? init.path : init.path.slice(0, queryAt);
  const rawQueryString = queryAt < 0 ? '' : init.path.slice(queryAt + 1);
  const headers: Record<string, string> = { 'content-type': 'application/json', ...init.headers };
  const body = init.body ?? (init.json === undefined ? undefined : JSON.stringify(init.json));
  const now = Date.now();
  return {
    version: '2.0',
    routeKey: '$default',
    rawPath,
    rawQueryString,
    headers,
    ...(rawQueryString ? { queryStringParameters: Object.fromEntries(new URLSearchParams(rawQueryString)) } : {}),
    requestContext: {
      accountId: 'local',
      apiId: 'local',
      domainName: 'localhost',
      domainPrefix: 'localhost',
      http: {
        method: init.method ?? 'POST',
        path: rawPath,
        protocol: 'HTTP/1.1',
        sourceIp: '127.0.0.1',
        userAgent: headers['user-agent'] ?? 'event-factory',
      },
      requestId: init.requestId ?? randomUUID(),
      routeKey: '$default',
      stage: '$default',
      time: new Date(now).toUTCString(),
      timeEpoch: now,
    },
    ...(body === undefined ? {} : { body }),
    isBase64Encoded: init.isBase64Encoded ?? false,
  };
}
