import { API_KEY_PATTERN } from '../../shared/auth/api-key.js';
import { presentedKey } from '../../shared/auth/presented-key.js';
import type { ApiKeyStore } from '../../shared/auth/api-key-store.js';

/** The HTTP API "simple response" of a Lambda REQUEST authorizer (payload 2.0, enableSimpleResponses). */
export interface SimpleAuthorizerResult {
  readonly isAuthorized: boolean;
  /** Reaches the API function as requestContext.authorizer.lambda; only the key's non-secret id. */
  readonly context?: { readonly keyId: string };
}

/**
 * The edge check in front of the 3 GB scoring function: is this a live key of the key store? Malformed
 * headers and keys that cannot be ours (not `rk-` + 40 base62) are refused without a table read, so a flood
 * of random strings costs one small invocation each and no DynamoDB read. Rate limits and job slots stay in
 * the API function (they need the key's record and a counter write per request); it re-checks the key too,
 * so a revocation inside this authorizer's cache TTL still gets 401 from the function.
 */
export async function authorizeRequest(authorization: string | undefined, keys: ApiKeyStore): Promise<SimpleAuthorizerResult> {
  const key = presentedKey(authorization);
  if (key === undefined || !API_KEY_PATTERN.test(key)) return { isAuthorized: false };
  const record = await keys.findByKey(key);
  return record === undefined ? { isAuthorized: false } : { isAuthorized: true, context: { keyId: record.keyId } };
}
