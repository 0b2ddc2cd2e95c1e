import { createAmazonBedrock } from '@ai-sdk/amazon-bedrock';
import { APICallError, rerank } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOCS, QUERY, SDK_KEY, startSdkServer, type SdkServer } from './sdk-server.js';

// The Vercel AI SDK's rerank() with @ai-sdk/amazon-bedrock 4.x (the line of `ai` 6), unchanged: `baseURL` is the
// service and `apiKey` is sent as a Bearer key to `${baseURL}/rerank` with Bedrock's Rerank body.
let api: SdkServer;

beforeAll(async () => {
  api = await startSdkServer();
});

afterAll(async () => {
  await api?.stop();
});

const model = (apiKey = SDK_KEY) => createAmazonBedrock({ baseURL: api.url, region: 'us-west-2', apiKey }).reranking('amazon.rerank-v1:0');

describe('ai rerank() with the Amazon Bedrock provider', () => {
  it('ranks as our API does: best first, original indices, topN as numberOfResults', async () => {
    const { ranking, rerankedDocuments } = await rerank({ model: model(), query: QUERY, documents: DOCS, topN: 2 });

    const expected = await api.rerank({ query: QUERY, documents: DOCS, top_n: 2 });
    expect(ranking.map((r) => [r.originalIndex, r.score])).toEqual(expected.map((r) => [r.index, expect.closeTo(r.relevance_score, 5)]));
    expect(rerankedDocuments).toEqual(expected.map((r) => DOCS[r.index]));
  });

  it('ranks object documents (sent as JSON documents)', async () => {
    const objects = DOCS.map((body, i) => ({ id: i, body }));
    const { ranking } = await rerank({ model: model(), query: QUERY, documents: objects });
    const expected = await api.rerank({ query: QUERY, documents: objects.map((o) => JSON.stringify(o)) });
    expect(ranking.map((r) => r.originalIndex)).toEqual(expected.map((r) => r.index));
  });

  it("surfaces our message for a wrong key (the body Bedrock's errors carry)", async () => {
    const error = await rerank({ model: model('sk-wrong'), query: QUERY, documents: DOCS, maxRetries: 0 }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(APICallError.isInstance(error)).toBe(true);
    expect((error as APICallError).statusCode).toBe(401);
    expect((error as APICallError).message).toContain('invalid API key');
  });
});
