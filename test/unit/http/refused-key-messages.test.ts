import { describe, expect, it } from 'vitest';
import type { Scorer } from '../../../shared/core/scorer.js';
import { DIALECTS } from '../../../shared/dialects/dialects.js';
import { apiGatewayEvent } from '../../support/event-factory.js';
import { sigV4Authorization } from '../../support/sigv4-authorization.js';
import { testRuntime } from '../../support/test-runtime.js';

const lengthScorer: Scorer = {
  id: 'length',
  scoreKind: 'similarity',
  score: async (_q, docs) => ({ scores: docs.map((d) => d.length), tokens: docs.length }),
};

const KEY = `rk-${'A'.repeat(40)}`;
const WRONG = `rk-${'Z'.repeat(40)}`;

async function refusal(path: string, headers: Record<string, string>, json: unknown = { not: 'read' }) {
  const rt = testRuntime({ scorers: [lengthScorer], open: false });
  await rt.keys.create('someone');
  const reply = await rt.app.handle(apiGatewayEvent({ method: 'POST', path, json, headers }));
  expect(reply.statusCode).toBe(401);
  const text = reply.body as string;
  for (const secret of [KEY, WRONG]) expect(text).not.toContain(secret);
  return { body: JSON.parse(text) as Record<string, unknown>, headers: reply.headers ?? {}, text };
}

const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

describe("a 401 names what this dialect's clients send, and what was wrong", () => {
  it('OpenAI-style routes: nothing sent, a key without Bearer, an X-API-Key header, an unknown Bearer key', async () => {
    const missing = await refusal('/v1/rerank', {});
    expect(missing.text).toMatch(/missing API key: the request carries no credentials; send Authorization: Bearer <key>/);
    const bare = await refusal('/v1/rerank', { authorization: KEY });
    expect(bare.text).not.toMatch(/missing/);
    expect(bare.text).toMatch(/without the Bearer scheme; send Authorization: Bearer <key>/);
    const xApiKey = await refusal('/v1/rerank', { 'x-api-key': KEY });
    expect(xApiKey.text).not.toMatch(/missing/);
    expect(xApiKey.text).toMatch(/X-API-Key header, which this service does not read; send Authorization: Bearer <key>/);
    const unknown = await refusal('/v1/rerank', { authorization: `Bearer ${WRONG}` });
    expect(unknown.text).toMatch(/invalid API key: the Bearer key matches no key of this service/);
  });

  it("Weaviate: the key goes as the reranker URL's password", async () => {
    const missing = await refusal('/weaviate/rerank', {});
    expect(missing.body).toEqual({
      error: expect.stringMatching(/^missing API key: .*RERANKER_INFERENCE_API=http:\/\/weaviate:<key>@host/),
    });
    const asUser = await refusal('/weaviate/rerank', { authorization: basic(KEY, '') });
    expect(asUser.body['error']).toMatch(/Basic credential without a password .*the key goes as the password/);
    const unknown = await refusal('/weaviate/rerank', { authorization: basic('weaviate', WRONG) });
    expect(unknown.body['error']).toMatch(/invalid API key: the Basic password matches no key .*URL as its password/);
  });

  it('Pinecone: the key goes as Api-Key', async () => {
    const headers = DIALECTS.pinecone.exampleHeaders ?? {};
    const missing = await refusal('/rerank', headers);
    expect(missing.body).toEqual({
      status: 401,
      error: { code: 'UNAUTHENTICATED', message: expect.stringMatching(/^missing API key: .*Api-Key: <key>/) },
    });
    const unknown = await refusal('/rerank', { ...headers, 'api-key': WRONG });
    expect(unknown.text).toMatch(/invalid API key: the Api-Key header matches no key .*Api-Key: <key>/);
  });

  it("Google: the key goes as the authClient's access token", async () => {
    const path = '/v1/projects/p/locations/global/rankingConfigs/default:rank';
    const missing = await refusal(path, {});
    expect(missing.text).toMatch(/missing API key: .*authClient holding the key as its access token/);
    expect(missing.body).toMatchObject({ error: { code: 401, status: 'UNAUTHENTICATED' } });
  });

  it("Bedrock: answered in Bedrock's envelope, naming accessKeyId via SigV4 (a key put in the secret is the usual mistake)", async () => {
    const body = JSON.stringify(DIALECTS.bedrock.example);
    // The SDK configured with the key as the secret: some other access key id is signed.
    const signedWrongly = await sigV4Authorization('http://localhost/rerank', body, 'AKIAEXAMPLE', KEY);
    for (const path of ['/rerank', '/model/cohere.rerank-v3-5:0/invoke']) {
      const refused = await refusal(path, { authorization: signedWrongly });
      expect(refused.headers['x-amzn-ErrorType']).toBe('AccessDeniedException');
      expect(refused.body).toEqual({
        message: expect.stringMatching(/^invalid API key: the SigV4 access key id matches no key .*accessKeyId: <key>.*not as the secret/),
      });
    }
    const invokeMissing = await refusal('/model/cohere.rerank-v3-5:0/invoke', {});
    expect(invokeMissing.headers['x-amzn-ErrorType']).toBe('AccessDeniedException');
    expect(invokeMissing.body).toEqual({ message: expect.stringMatching(/^missing API key: .*SigV4/) });
  });

  it('the shared /rerank path, decided on headers before the body: names Bearer, SigV4 and Api-Key', async () => {
    const refused = await refusal('/rerank', {}, DIALECTS.bedrock.example);
    expect(refused.text).toMatch(/send Authorization: Bearer <key>/);
    expect(refused.text).toMatch(/SigV4: set the key as the access key id/);
    expect(refused.text).toMatch(/Api-Key: <key>/);
  });

  it("every dialect's route names a way to send the key in its 401", async () => {
    for (const dialect of Object.values(DIALECTS)) {
      for (const path of dialect.paths) {
        const concrete = path.replace(/\{[^}]+\}/g, 'x').replace(/^\/rerank$/, dialect.underPrefix ? '/weaviate/rerank' : '/rerank');
        const refused = await refusal(concrete, dialect.exampleHeaders ?? {});
        expect(refused.text, `${dialect.name} ${concrete}`).toMatch(dialect.keyPlacement === undefined ? /Bearer <key>/ : /<key>/);
      }
    }
  });
});
