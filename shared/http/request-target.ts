import { echoText } from '../core/echo-text.js';
import { RerankError } from '../core/rerank-error.js';

/** A `.` or `..` path segment, spelled out or percent-encoded. */
const DOT_SEGMENT = /^(?:\.|%2e){1,2}$/i;

/**
 * A request target API Gateway routes to no function: one in absolute form (`http://host/v1/rerank`), one starting
 * with `//`, or one with a `.` / `..` segment. The local server routes the raw target as API Gateway does, so these are
 * a 404 there too; resolving them (`/v1/projects/../../v1/rerank` reaching `/v1/rerank`) would let a path that a
 * proxy or a log reads one way reach another route. Trailing slashes are no such case: routing strips them.
 */
export function isUnroutableTarget(target: string): boolean {
  if (!target.startsWith('/') || target.startsWith('//')) return true;
  const queryAt = target.indexOf('?');
  const path = queryAt < 0 ? target : target.slice(0, queryAt);
  return path.split('/').some((segment) => DOT_SEGMENT.test(segment));
}

/** The 404 for such a target, naming it (cut, as every echo is). */
export const unroutableTargetError = (method: string, target: string): RerankError =>
  new RerankError(
    'not_found',
    `no route for ${method} ${echoText(target)} (the request target must be a plain path: no dot segments, no leading //)`,
  );
