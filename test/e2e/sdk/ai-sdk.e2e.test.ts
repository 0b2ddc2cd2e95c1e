import { createCohere } from '@ai-sdk/cohere';
import { createTogetherAI } from '@ai-sdk/togetherai';
import { APICallError, rerank } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOCS, MANY_DOCS, QUERY, SDK_KEY, STILL_RUNNING, startSdkServer, type SdkServer } from './sdk-server.js';

// The Vercel AI SDK's rerank() with its Cohere (baseURL `.../v2`) and Together AI (baseURL `.../v1`) providers, unchanged.
let api: SdkServer;

beforeAll(async () => {
  api = await startSdkServer();
});

afterAll(async () => {
  await api?.stop();
});

const providers = [
  ['Cohere', (key: string) => createCohere({ apiKey: key, baseURL: `${api.url}/v2` }).reranking('rerank-v3.5')],
  ['Together AI', (key: string) => createTogetherAI({ apiKey: key, baseURL: `${api.url}/v1` }).reranking('Salesforce/Llama-Rank-v1')],
] as const;

const caught = async (act: () => Promise<unknown>): Promise<APICallError> => {
  const error = await act().then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(APICallError.isInstance(error)).toBe(true);
  return error as APICallError;
};

describe.each(providers)('ai rerank() with the %s provider', (_name, model) => {
  it('ranks as our API does: best first, original indices, top_n applied', async () => {
    const { ranking, rerankedDocuments } = await rerank({ model: model(SDK_KEY), query: QUERY, documents: DOCS, topN: 2 });

    const expected = await api.rerank({ query: QUERY, documents: DOCS, top_n: 2 });
    expect(ranking.map((r) => [r.originalIndex, r.score])).toEqual(expected.map((r) => [r.index, r.relevance_score]));
    expect(rerankedDocuments[0]).toBe(DOCS[2]);
  });

  it('surfaces our message from a 401', async () => {
    const error = await caught(() => rerank({ model: model('sk-wrong'), query: QUERY, documents: DOCS, maxRetries: 0 }));

    expect(error.statusCode).toBe(401);
    expect(error.message).toMatch(/^invalid API key: /);
  });

  it('a request whose job outlives the wait is an error naming the poll URL', async () => {
    const error = await caught(() => rerank({ model: model(SDK_KEY), query: QUERY, documents: MANY_DOCS, maxRetries: 0 }));

    expect(error.statusCode).toBe(504);
    expect(error.message).toMatch(STILL_RUNNING);
  });
});
