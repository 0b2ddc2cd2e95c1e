import { describe, expect, it } from 'vitest';
import { authorizationOf, presentedKey } from '../../../shared/auth/presented-key.js';
import { sigV4Authorization } from '../../support/sigv4-authorization.js';

const KEY = `rk-${'a1B2'.repeat(10)}`;
const headers = (values: Record<string, string>) => (name: string) => values[name];

describe('presentedKey: the key an Authorization header carries', () => {
  it('reads a Bearer key, any case of the scheme, surrounding spaces allowed', () => {
    expect(presentedKey(`Bearer ${KEY}`)).toBe(KEY);
    expect(presentedKey(`bearer   ${KEY}  `)).toBe(KEY);
  });

  it("reads an AWS SDK's SigV4 header as its access key id, whatever secret signed it", async () => {
    const authorization = await sigV4Authorization('http://127.0.0.1:3000/rerank', '{}', KEY, 'any secret at all');
    expect(authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=rk-/);
    expect(presentedKey(authorization)).toBe(KEY);
    // The signature is not checked (see SECURITY.md): a header with a wrong one presents the same key.
    expect(presentedKey(authorization.replace(/Signature=\w+/, 'Signature=0000'))).toBe(KEY);
  });

  it('reads HTTP Basic with the key as the password, any user name (what Go sends for http://user:<key>@host)', () => {
    expect(presentedKey(`Basic ${Buffer.from(`weaviate:${KEY}`).toString('base64')}`)).toBe(KEY);
    expect(presentedKey(`basic ${Buffer.from(`:${KEY}`).toString('base64')}`)).toBe(KEY);
    expect(presentedKey(`Basic ${Buffer.from('weaviate:').toString('base64')}`)).toBeUndefined();
    expect(presentedKey(`Basic ${Buffer.from(KEY).toString('base64')}`)).toBeUndefined();
  });

  it('finds no key in anything else', () => {
    for (const header of [
      undefined,
      '',
      'Basic abc',
      'Bearer',
      'Bearer a b',
      'AWS4-HMAC-SHA256 Credential=',
      'AWS4-HMAC-SHA256 SignedHeaders=host',
      `Token ${KEY}`,
    ]) {
      expect(presentedKey(header), String(header)).toBeUndefined();
    }
  });
});

describe("authorizationOf: Authorization, else Pinecone's Api-Key", () => {
  it('prefers the Authorization header and reads Api-Key as a Bearer key without one', () => {
    expect(authorizationOf(headers({ authorization: `Bearer ${KEY}`, 'api-key': 'other' }))).toBe(`Bearer ${KEY}`);
    expect(presentedKey(authorizationOf(headers({ 'api-key': ` ${KEY} ` })))).toBe(KEY);
    expect(authorizationOf(headers({}))).toBeUndefined();
  });
});
