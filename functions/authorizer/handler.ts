import type { APIGatewayRequestAuthorizerEventV2 } from 'aws-lambda';
import { authorizerKeys } from '../../shared/runtime/authorizer-runtime.js';
import { logger } from '../../shared/observability/logger.js';
import { authorizationOf } from '../../shared/auth/presented-key.js';
import { authorizeRequest, type SimpleAuthorizerResult } from './authorize-request.js';

/**
 * HTTP API Lambda REQUEST authorizer (see infra/constructs/edge-authorizer.ts). No model, no ONNX runtime:
 * a 256 MB function whose whole work is one cached GetItem. API Gateway caches its answer per Authorization
 * header as well; this per-container cache covers cache misses across routes.
 */
const keys = authorizerKeys();

export async function handler(event: APIGatewayRequestAuthorizerEventV2): Promise<SimpleAuthorizerResult> {
  if (keys === undefined) {
    // Fail closed: a misconfigured authorizer lets nobody through (and says why, without any header).
    logger.error('authorizer has no RERANK_JOBS_TABLE');
    return { isAuthorized: false };
  }
  try {
    return await authorizeRequest(
      authorizationOf((name) => event.headers?.[name]),
      keys,
    );
  } catch (error) {
    // A throttled or failing table: throw, so API Gateway answers 500 and caches nothing. A returned deny would be
    // cached for the TTL and lock a valid key out; letting it through would skip the check.
    logger.error('key lookup failed', { error: error as Error });
    throw new Error('key lookup failed', { cause: error });
  }
}
