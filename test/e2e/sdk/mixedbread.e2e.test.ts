import { APIError, Mixedbread } from '@mixedbread/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOCS, MANY_DOCS, QUERY, SDK_KEY, STILL_RUNNING, startSdkServer, type SdkServer } from './sdk-server.js';

// Mixedbread's SDK, unchanged: its baseURL is this service's root (rerank() posts to /v1/reranking).
let api: SdkServer;

beforeAll(async () => {
  api = await startSdkServer();
});

afterAll(async () => {
  await api?.stop();
});

const client = (key = SDK_KEY) => new Mixedbread({ apiKey: key, baseURL: api.url, maxRetries: 0 });

const failureOf = (promise: Promise<unknown>): Promise<unknown> =>
  promise.then(
    () => undefined,
    (e: unknown) => e,
  );

describe('@mixedbread/sdk rerank', () => {
  it('ranks as our API does: data best first with score, top_k, the input returned as sent', async () => {
    const reply = await client().rerank({
      model: 'mixedbread-ai/mxbai-rerank-large-v2',
      query: QUERY,
      input: DOCS,
      top_k: 2,
      return_input: true,
    });

    const expected = await api.rerank({ query: QUERY, documents: DOCS, top_n: 2 });
    expect(reply.data.map((r) => [r.index, r.score, r.input])).toEqual(expected.map((r) => [r.index, r.relevance_score, DOCS[r.index]]));
    expect(reply).toMatchObject({ object: 'list', top_k: 2, return_input: true });
    expect(reply.usage.total_tokens).toBeGreaterThan(0);
  });

  it('scores object inputs by rank_fields and returns them whole', async () => {
    const input = DOCS.map((text, i) => ({ id: `doc-${i}`, text }));
    const reply = await client().rerank({ query: QUERY, input, rank_fields: ['text'], return_input: true });
    expect(reply.data).toHaveLength(DOCS.length);
    for (const r of reply.data) expect(r.input).toEqual(input[r.index]);
  });

  it('surfaces our message: a 401, a 400 naming the field, and a job that outlives the wait', async () => {
    const unauthorized = await failureOf(client('sk-wrong').rerank({ query: QUERY, input: DOCS }));
    expect(unauthorized).toBeInstanceOf(APIError);
    expect((unauthorized as APIError).status).toBe(401);
    expect((unauthorized as APIError).message).toContain('invalid API key');

    const bad = await failureOf(client().rerank({ query: QUERY, input: DOCS, top_k: -5 }));
    expect((bad as APIError).status).toBe(400);
    expect((bad as APIError).message).toContain('top_k');

    const running = await failureOf(client().rerank({ query: QUERY, input: MANY_DOCS }));
    expect((running as APIError).status).toBe(504);
    expect((running as APIError).message).toMatch(STILL_RUNNING);
  });
});
