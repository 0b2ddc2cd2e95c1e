import { CohereRerank } from '@langchain/cohere';
import { Document } from '@langchain/core/documents';
import { CohereClient } from 'cohere-ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOCS, MANY_DOCS, QUERY, SDK_KEY, STILL_RUNNING, startSdkServer, type SdkServer } from './sdk-server.js';

// LangChain's CohereRerank takes a Cohere client: the base URL is that client's `environment` (the host root).
let api: SdkServer;

beforeAll(async () => {
  api = await startSdkServer();
});

afterAll(async () => {
  await api?.stop();
});

type LangChainClient = ConstructorParameters<typeof CohereRerank>[0] extends infer F ? (F extends { client?: infer C } ? C : never) : never;

const reranker = (key: string, maxRetries?: number) =>
  new CohereRerank({
    model: 'rerank-english-v2.0',
    topN: 2,
    // LangChain pins its own copy of cohere-ai; the client's public surface is the same.
    client: new CohereClient({
      token: key,
      environment: api.url,
      ...(maxRetries === undefined ? {} : { maxRetries }),
    }) as unknown as LangChainClient,
  });

describe('@langchain/cohere CohereRerank', () => {
  it('compressDocuments keeps the best topN, with our scores as relevanceScore', async () => {
    const documents = DOCS.map((pageContent) => new Document({ pageContent }));

    const kept = await reranker(SDK_KEY).compressDocuments(documents, QUERY);

    const expected = await api.rerank({ query: QUERY, documents: DOCS, top_n: 2 });
    expect(kept.map((d) => [d.pageContent, d.metadata['relevanceScore']])).toEqual(expected.map((r) => [DOCS[r.index], r.relevance_score]));
  });

  it('rerank() returns indices and scores', async () => {
    const ranked = await reranker(SDK_KEY).rerank(DOCS, QUERY, { topN: 3 });

    const expected = await api.rerank({ query: QUERY, documents: DOCS });
    expect(ranked).toEqual(expected.map((r) => ({ index: r.index, relevanceScore: r.relevance_score })));
  });

  it('errors carry our message: a 401, and a job that outlives the wait', async () => {
    await expect(reranker('sk-wrong').rerank(DOCS, QUERY)).rejects.toThrow(/invalid API key/);
    await expect(reranker(SDK_KEY, 0).rerank(MANY_DOCS, QUERY)).rejects.toThrow(STILL_RUNNING);
  });
});
