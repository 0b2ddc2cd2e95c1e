import type { IncomingMessage } from 'node:http';
import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { authorizationOf } from '../auth/presented-key.js';
import type { RequestAuthenticator } from '../auth/request-authenticator.js';
import { failureResult } from './api-app.js';
import { describeRefusal } from './describe-refusal.js';
import { openExchange } from './pipeline/api-exchange.js';
import { bodyTooLargeError } from './body-too-large-error.js';
import { matchRoute } from './api-routes.js';
import { toApiGatewayEvent } from './node-http-adapter.js';

export interface BeforeBodyChecks {
  readonly auth: RequestAuthenticator;
  readonly maxBodyBytes: number;
  readonly maxPathChars: number;
}

/** Refuse now (the answer), or go on - reading the body only when the route will use it. */
export type BeforeBody = { readonly refuse: APIGatewayProxyStructuredResultV2 } | { readonly readBody: boolean };

/**
 * What the local server decides from the request line and headers alone, before it reads a byte of the body: a
 * missing or unknown key on a route that needs one, or an announced Content-Length past the body limit, is answered
 * at once as the API would answer it, in the route's own envelope; a path that names no route (404, 405, 414) is
 * answered by the API without its body. API Gateway does the same on AWS (authorizer, payload cap).
 */
export async function beforeBody(req: IncomingMessage, checks: BeforeBodyChecks): Promise<BeforeBody> {
  const event = toApiGatewayEvent(req, Buffer.alloc(0));
  const match = matchRoute(event.requestContext.http.method, event.rawPath, checks.maxPathChars);
  if (match.found !== 'route') return { readBody: false };
  const read = (name: string) => event.headers[name];
  try {
    if (!match.route.public) await checks.auth.verify(authorizationOf(read));
  } catch (error) {
    return { refuse: failureResult(event, describeRefusal(error, { dialect: openExchange(event).dialect, match, header: read })) };
  }
  const announced = Number(req.headers['content-length']);
  if (Number.isFinite(announced) && announced > checks.maxBodyBytes) {
    return { refuse: failureResult(event, bodyTooLargeError(match.route, announced, checks.maxBodyBytes)) };
  }
  return { readBody: true };
}

/**
 * The 413 for a body that passed its headers but grew past what the local server reads (no Content-Length, chunked):
 * in the route's envelope, with the route's hint (POST /v1/files names the Uploads API). API Gateway answers its own
 * fixed message at that point on AWS; locally the reader gets the more useful one.
 */
export function oversizeBodyResult(
  req: IncomingMessage,
  readUpTo: number,
  maxBodyBytes: number,
  maxPathChars: number,
): APIGatewayProxyStructuredResultV2 {
  const event = toApiGatewayEvent(req, Buffer.alloc(0));
  const match = matchRoute(event.requestContext.http.method, event.rawPath, maxPathChars);
  return failureResult(event, bodyTooLargeError(match.found === 'route' ? match.route : undefined, { moreThan: readUpTo }, maxBodyBytes));
}
