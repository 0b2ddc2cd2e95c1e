import { CohereClient, CohereClientV2, CohereError } from 'cohere-ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOCS, MANY_DOCS, QUERY, SDK_KEY, STILL_RUNNING, startSdkServer, type SdkServer } from './sdk-server.js';

// The Cohere TypeScript SDK, unchanged: only `environment` (its base URL: the host root) and the key differ.
let api: SdkServer;

beforeAll(async () => {
  api = await startSdkServer();
});

afterAll(async () => {
  await api?.stop();
});

const caught = async (act: () => Promise<unknown>): Promise<CohereError> => {
  const error = await act().then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(CohereError);
  return error as CohereError;
};

describe('cohere-ai v1 client (POST /v1/rerank)', () => {
  it('ranks with a hosted model name, rank by rank as our API does, documents included when asked', async () => {
    const client = new CohereClient({ token: SDK_KEY, environment: api.url });

    const reply = await client.rerank({ model: 'rerank-v3.5', query: QUERY, documents: DOCS, topN: 2, returnDocuments: true });

    const expected = await api.rerank({ query: QUERY, documents: DOCS, top_n: 2 });
    expect(reply.results.map((r) => [r.index, r.relevanceScore])).toEqual(expected.map((r) => [r.index, r.relevance_score]));
    expect(reply.results[0]?.index).toBe(2);
    for (const r of reply.results) expect(r.document?.text).toBe(DOCS[r.index]);
  });

  it('rank_fields and max_chunks_per_doc reach the v1 dialect', async () => {
    const client = new CohereClient({ token: SDK_KEY, environment: api.url });
    const documents = DOCS.map((text, i) => ({ title: `doc ${i}`, body: text }));

    const reply = await client.rerank({ model: 'rerank-english-v2.0', query: QUERY, documents, rankFields: ['body'], maxChunksPerDoc: 2 });

    expect(reply.results).toHaveLength(3);
    expect(reply.results[0]?.index).toBe(2);
  });

  it("surfaces our message from a 4xx, in the SDK's error type", async () => {
    const client = new CohereClient({ token: 'sk-wrong', environment: api.url });

    const error = await caught(() => client.rerank({ model: 'rerank-v3.5', query: QUERY, documents: DOCS }));

    expect(error.statusCode).toBe(401);
    expect(error.body).toMatchObject({ message: expect.stringMatching(/^invalid API key: /) });
    expect(error.message).toContain('invalid API key');
  });

  it('a request whose job outlives the wait is an error naming the poll URL, never a success without results', async () => {
    const client = new CohereClient({ token: SDK_KEY, environment: api.url, maxRetries: 0 });

    const error = await caught(() => client.rerank({ model: 'rerank-v3.5', query: QUERY, documents: MANY_DOCS }));

    expect(error.statusCode).toBe(504);
    expect((error.body as { message: string }).message).toMatch(STILL_RUNNING);
    expect(error.message).toMatch(STILL_RUNNING);
  });
});

describe('cohere-ai v2 client (POST /v2/rerank)', () => {
  it.each([
    ['the host root', ''],
    ['the `/v1` base other clients take (it sends /v1/v2/rerank)', '/v1'],
  ])('ranks with environment = %s; max_tokens_per_doc accepted', async (_name, suffix) => {
    const client = new CohereClientV2({ token: SDK_KEY, environment: `${api.url}${suffix}` });

    const reply = await client.rerank({ model: 'rerank-v3.5', query: QUERY, documents: DOCS, topN: 3, maxTokensPerDoc: 4096 });

    const expected = await api.rerank({ query: QUERY, documents: DOCS });
    expect(reply.results.map((r) => [r.index, r.relevanceScore])).toEqual(expected.map((r) => [r.index, r.relevance_score]));
    expect(reply.meta?.apiVersion?.version).toBe('2');
  });

  it('cuts to maxTokensPerDoc as /v1/rerank does, and takes priority without it changing a score; meta.warnings says both', async () => {
    const client = new CohereClientV2({ token: SDK_KEY, environment: api.url });

    const { data: reply, rawResponse } = await client
      .rerank({ model: 'rerank-v3.5', query: QUERY, documents: DOCS, maxTokensPerDoc: 3, priority: 7 })
      .withRawResponse();

    const expected = await api.rerank({ query: QUERY, documents: DOCS, max_tokens_per_doc: 3 });
    expect(reply.results.map((r) => [r.index, r.relevanceScore])).toEqual(expected.map((r) => [r.index, r.relevance_score]));
    const whole = await api.rerank({ query: QUERY, documents: DOCS });
    expect(reply.results.map((r) => r.relevanceScore)).not.toEqual(whole.map((r) => r.relevance_score));
    expect(reply.meta?.warnings).toEqual(
      expect.arrayContaining(['document 0 truncated to 3 tokens', expect.stringMatching(/^priority is not used/)]),
    );
    expect(rawResponse.headers.get('x-rerank-unused-controls')).toBe('priority');
    expect(rawResponse.headers.get('x-rerank-truncated')).toMatch(/^0=3, 1=3, 2=3$/);
  });

  it('surfaces our validation message', async () => {
    const client = new CohereClientV2({ token: SDK_KEY, environment: api.url });

    const error = await caught(() => client.rerank({ model: 'rerank-v3.5', query: '', documents: DOCS }));

    expect(error.statusCode).toBe(400);
    expect((error.body as { message: string }).message).toMatch(/query/);
  });
});
