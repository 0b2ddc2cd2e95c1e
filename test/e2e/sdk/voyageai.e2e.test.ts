import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VoyageAIClient, VoyageAIError } from 'voyageai';
import { DOCS, MANY_DOCS, QUERY, SDK_KEY, STILL_RUNNING, startSdkServer, type SdkServer } from './sdk-server.js';

// Voyage's SDK, unchanged: its base URL is `.../voyage/v1` (it appends /rerank; its top_k/data shape is served there).
let api: SdkServer;

beforeAll(async () => {
  api = await startSdkServer();
});

afterAll(async () => {
  await api?.stop();
});

const client = (key = SDK_KEY) => new VoyageAIClient({ apiKey: key, baseUrl: `${api.url}/voyage/v1`, maxRetries: 0 });

describe('voyageai rerank', () => {
  it('ranks as our API does, in data[], with top_k and documents as strings', async () => {
    const reply = await client().rerank({ model: 'rerank-2', query: QUERY, documents: DOCS, topK: 2, returnDocuments: true });

    const expected = await api.rerank({ query: QUERY, documents: DOCS, top_n: 2 });
    expect(reply.data?.map((r) => [r.index, r.relevanceScore, r.document])).toEqual(
      expected.map((r) => [r.index, r.relevance_score, DOCS[r.index]]),
    );
    expect(reply.usage?.totalTokens).toBeGreaterThan(0);
  });

  it("pointed at .../v1 instead of .../voyage/v1, gets a 404 in Voyage's shape naming the base URL it needs", async () => {
    const misdirected = await new VoyageAIClient({ apiKey: SDK_KEY, baseUrl: `${api.url}/v1`, maxRetries: 0 })
      .rerank({ model: 'rerank-2', query: QUERY, documents: DOCS })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(misdirected).toBeInstanceOf(VoyageAIError);
    expect((misdirected as VoyageAIError).statusCode).toBe(404);
    expect((misdirected as VoyageAIError).body).toMatchObject({
      detail: expect.stringMatching(/base URL to \.\.\.\/voyage\/v1.*\/voyage\/v1'/),
    });
    // Every other client of /v1/rerank is answered as before.
    expect(await api.rerank({ query: QUERY, documents: DOCS, top_n: 1 })).toHaveLength(1);
  });

  it('surfaces our message: a 401, and a job that outlives the wait', async () => {
    const unauthorized = await client('sk-wrong')
      .rerank({ model: 'rerank-2', query: QUERY, documents: DOCS })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(unauthorized).toBeInstanceOf(VoyageAIError);
    expect((unauthorized as VoyageAIError).statusCode).toBe(401);
    expect(JSON.stringify((unauthorized as VoyageAIError).body)).toContain('invalid API key');
    // Voyage's error schema is {detail: string} (Voyage's OpenAPI document, voyage-ai/typescript-sdk .mock/openapi/openapi.yml); its Python client reads `detail`.
    expect(typeof ((unauthorized as VoyageAIError).body as { detail?: unknown }).detail).toBe('string');

    const running = await client()
      .rerank({ model: 'rerank-2', query: QUERY, documents: MANY_DOCS })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect((running as VoyageAIError).statusCode).toBe(504);
    expect((running as VoyageAIError).message).toMatch(STILL_RUNNING);
  });
});
