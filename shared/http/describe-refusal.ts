import { CredentialRefusedError, type CredentialProblem } from '../auth/credential-refused-error.js';
import { RerankError } from '../core/rerank-error.js';
import type { Dialect } from '../dialects/dialect.js';
import type { RouteMatch } from './api-routes.js';

/** Where OpenAI-, Cohere-, Jina- and most other clients put their `api_key`. */
const BEARER_PLACEMENT = "send Authorization: Bearer <key> (your client's api_key / apiKey setting)";

/** A refused request as its headers show it: where it was going, whose envelope answers, a header by lower-case name. */
export interface RefusedRequest {
  readonly dialect: Dialect;
  readonly match: RouteMatch;
  readonly header: (name: string) => string | undefined;
}

/** What held the unknown key, by the header it came in (never quoting it). */
function heldIn(header: RefusedRequest['header']): string {
  const scheme = header('authorization')?.trim().split(/\s/, 1)[0]?.toLowerCase();
  if (scheme === 'aws4-hmac-sha256') return 'the SigV4 access key id';
  if (scheme === 'basic') return 'the Basic password';
  return scheme === undefined && header('api-key') !== undefined ? 'the Api-Key header' : 'the Bearer key';
}

/**
 * The fix for this dialect's clients; on a path other dialects share by their headers (Bedrock's and Pinecone's on
 * `/rerank`), theirs too, as a 401 is decided there before the body that could name the dialect is read.
 */
function fixFor(request: RefusedRequest): string {
  const own = request.dialect.keyPlacement ?? BEARER_PLACEMENT;
  const action = request.match.found === 'route' ? request.match.route.action : undefined;
  const others = (action?.kind === 'rerank' ? (action.byHeaders ?? []) : [])
    .map((alternative) => alternative.dialect)
    .filter((dialect) => dialect !== request.dialect && dialect.keyPlacement !== undefined)
    .map((dialect) => dialect.keyPlacement);
  return others.length === 0 ? own : `${own}; on this path also: ${others.join('; ')}`;
}

/** An X-API-Key header is no credential here, but it is not a missing one either: the caller sent a key. */
function problemOf(error: CredentialRefusedError, header: RefusedRequest['header']): CredentialProblem {
  if (error.problem.kind !== 'missing' || header('x-api-key') === undefined) return error.problem;
  return { kind: 'misplaced', found: 'an X-API-Key header, which this service does not read' };
}

/**
 * A refused credential's 401 says what was wrong (nothing sent, something in the wrong place or scheme, an unknown
 * key) and where this dialect's clients put the key. Any other failure is returned as it is.
 */
export function describeRefusal(error: unknown, request: RefusedRequest): unknown {
  if (!(error instanceof CredentialRefusedError)) return error;
  const fix = fixFor(request);
  const problem = problemOf(error, request.header);
  const message =
    problem.kind === 'missing'
      ? `missing API key: the request carries no credentials; ${fix}`
      : problem.kind === 'misplaced'
        ? `API key not read: ${problem.found}; ${fix}`
        : `invalid API key: ${heldIn(request.header)} matches no key of this service (mistyped, revoked, or for another server?); ${fix}`;
  return new RerankError('unauthorized', message, { cause: error });
}
