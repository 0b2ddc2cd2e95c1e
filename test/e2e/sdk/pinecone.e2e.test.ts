import { Errors, Pinecone } from '@pinecone-database/pinecone';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOCS, MANY_DOCS, QUERY, SDK_KEY, startSdkServer, type SdkServer } from './sdk-server.js';

// Pinecone's SDK, unchanged: `controllerHostUrl` is the service; it posts a Jina-like body to /rerank with its key as
// `Api-Key` and `X-Pinecone-Api-Version`, which is how the service tells it apart there.
let api: SdkServer;

beforeAll(async () => {
  api = await startSdkServer();
});

afterAll(async () => {
  await api?.stop();
});

const client = (apiKey = SDK_KEY) => new Pinecone({ apiKey, controllerHostUrl: api.url, maxRetries: 0 });

const failure = (promise: Promise<unknown>): Promise<unknown> =>
  promise.then(
    () => undefined,
    (e: unknown) => e,
  );

describe('@pinecone-database/pinecone inference.rerank', () => {
  it('ranks as our API does: data[] with score, documents as sent, topN; usage.rerankUnits', async () => {
    const reply = await client().inference.rerank({ model: 'bge-reranker-v2-m3', query: QUERY, documents: DOCS, topN: 2 });

    const expected = await api.rerank({ query: QUERY, documents: DOCS, top_n: 2 });
    expect(reply.data.map((r) => [r.index, r.score, r.document])).toEqual(
      expected.map((r) => [r.index, r.relevance_score, { text: DOCS[r.index] }]),
    );
    expect(reply.usage.rerankUnits).toBe(1);
    expect(reply.model).toBe('tinybert-l2-fixture');
  });

  it('ranks object documents by their rank field and returns them as sent; returnDocuments false leaves them out', async () => {
    const records = DOCS.map((body, i) => ({ id: `doc-${i}`, body }));
    const reply = await client().inference.rerank({ model: 'bge-reranker-v2-m3', query: QUERY, documents: records, rankFields: ['body'] });
    const expected = await api.rerank({ query: QUERY, documents: DOCS });
    expect(reply.data.map((r) => [r.index, r.document])).toEqual(expected.map((r) => [r.index, records[r.index]]));
    const bare = await client().inference.rerank({ model: 'bge-reranker-v2-m3', query: QUERY, documents: DOCS, returnDocuments: false });
    expect(bare.data.every((r) => r.document === undefined)).toBe(true);
  });

  it("refuses a wrong key and a bad document in Pinecone's error shape, which the SDK raises as its own errors", async () => {
    const denied = await failure(client('sk-wrong').inference.rerank({ model: 'bge-reranker-v2-m3', query: QUERY, documents: DOCS }));
    expect(denied).toBeInstanceOf(Errors.PineconeAuthorizationError);

    const bad = await failure(
      client().inference.rerank({ model: 'bge-reranker-v2-m3', query: QUERY, documents: [{ id: 'no body' }], rankFields: ['body'] }),
    );
    expect(bad).toBeInstanceOf(Errors.PineconeBadRequestError);
    expect(JSON.parse((bad as Error).message)).toEqual({
      status: 400,
      error: { code: 'INVALID_ARGUMENT', message: expect.stringContaining('documents[0].body') },
    });
  });

  it("runs a set past the synchronous limit as a job, its result in Pinecone's shape (the SDK hides a 5xx body: it raises max-retries)", async () => {
    const running = await failure(client().inference.rerank({ model: 'bge-reranker-v2-m3', query: QUERY, documents: MANY_DOCS }));
    expect(running).toBeInstanceOf(Errors.PineconeMaxRetriesExceededError);

    // The same request as the SDK sends it, asking for the job at once; its poll answers in the dialect it came in.
    const headers = {
      'content-type': 'application/json',
      'api-key': SDK_KEY,
      'x-pinecone-api-version': '2026-04',
      prefer: 'respond-async',
    };
    const body = JSON.stringify({
      model: 'bge-reranker-v2-m3',
      query: QUERY,
      documents: MANY_DOCS.map((text) => ({ text })),
      top_n: 3,
      return_documents: false,
    });
    const submitted = await fetch(`${api.url}/rerank`, { method: 'POST', headers, body });
    expect(submitted.status).toBe(202);
    const poll = `${api.url}${submitted.headers.get('location')}`;
    let job: { status: string; result?: { data: { index: number; score: number }[]; usage: unknown } } = { status: 'running' };
    for (let i = 0; i < 300 && job.status === 'running'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      job = (await (await fetch(poll, { headers: { 'api-key': SDK_KEY } })).json()) as typeof job;
    }
    expect(job.status).toBe('succeeded');
    // Past the synchronous limit there is no sync answer to compare with: the shape, and the best first.
    expect(job.result).toEqual({ model: 'tinybert-l2-fixture', data: expect.any(Array), usage: { rerank_units: 1 } });
    const data = job.result?.data ?? [];
    expect(data).toHaveLength(3);
    for (const [i, r] of data.entries()) {
      expect(Object.keys(r).sort()).toEqual(['index', 'score']);
      expect(r.index).toBeLessThan(MANY_DOCS.length);
      if (i > 0) expect(data[i - 1]!.score).toBeGreaterThanOrEqual(r.score);
    }
  });
});
