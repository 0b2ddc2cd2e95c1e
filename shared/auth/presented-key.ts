import type { CredentialProblem } from './credential-refused-error.js';

/** `Authorization: Bearer <key>` (scheme case-insensitive, surrounding spaces allowed). */
const BEARER = /^Bearer\s+(\S+)\s*$/i;

/**
 * An AWS Signature Version 4 header, `AWS4-HMAC-SHA256 Credential=<access key id>/<date>/<region>/<service>/aws4_request,
 * SignedHeaders=..., Signature=...`: AWS SDKs sign with SigV4 only, so their clients present the key as the access key
 * id. The signature is not checked (keys are stored as digests, so there is no secret to check it with): see SECURITY.md.
 */
const SIGV4 = /^AWS4-HMAC-SHA256\s+Credential=([^/\s,]+)\//;

/**
 * HTTP Basic, `Basic base64(<user>:<key>)`: the key is the password, any user name. Clients that take only a URL send
 * it so: Weaviate's Go client turns `http://weaviate:<key>@host/...` into this header.
 */
const BASIC = /^Basic\s+([A-Za-z0-9+/]+={0,2})\s*$/i;

/** The password of a Basic credential (one longer than 1 KiB cannot hold a key of ours and is not decoded). */
function basicPassword(authorization: string): string | undefined {
  const encoded = BASIC.exec(authorization)?.[1];
  if (encoded === undefined || encoded.length > 1024) return undefined;
  const decoded = Buffer.from(encoded, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  const password = colon < 0 ? '' : decoded.slice(colon + 1);
  return password === '' ? undefined : password;
}

/** The key an Authorization header presents, as a Bearer token, a SigV4 access key id or a Basic password; undefined otherwise. */
export function presentedKey(authorization: string | undefined): string | undefined {
  if (authorization === undefined) return undefined;
  return BEARER.exec(authorization)?.[1] ?? SIGV4.exec(authorization)?.[1] ?? basicPassword(authorization);
}

/**
 * The Authorization header a request's key is read from. Pinecone's clients send their key as `Api-Key: <key>`
 * instead: without an Authorization header that one is read, as a Bearer key. `header` looks a header up by its
 * lower-case name.
 */
export function authorizationOf(header: (name: string) => string | undefined): string | undefined {
  const authorization = header('authorization');
  if (authorization !== undefined) return authorization;
  const apiKey = header('api-key');
  return apiKey === undefined ? undefined : `Bearer ${apiKey.trim()}`;
}

/**
 * Why an Authorization header that presents no key was not read, in words that never quote it (a bare key or a
 * mistyped scheme may be the secret itself).
 */
function unreadAuthorization(authorization: string): string {
  const value = authorization.trim();
  const scheme = /^(\S+)(\s+\S)?/.exec(value);
  if (scheme === null) return 'an empty Authorization header';
  const name = scheme[1]!.toLowerCase();
  if (scheme[2] === undefined) {
    return name === 'bearer' || name === 'basic'
      ? `an Authorization header with the ${scheme[1]} scheme and no key`
      : 'an Authorization header holding a bare value without the Bearer scheme';
  }
  if (name === 'basic') return 'a Basic credential without a password (the key goes as the password; any user name)';
  if (name === 'aws4-hmac-sha256') return 'a SigV4 header without a Credential=<access key id>/...';
  if (name === 'bearer') return 'a Bearer header with more than one word after the scheme';
  return 'an Authorization header of a scheme this service does not read (Bearer, SigV4 or Basic)';
}

/** What was wrong with a request's Authorization, when it presents no key: missing, or there but unread. */
export function absentKeyProblem(authorization: string | undefined): CredentialProblem {
  return authorization === undefined ? { kind: 'missing' } : { kind: 'misplaced', found: unreadAuthorization(authorization) };
}
