import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevServer, type RunningServer } from '../support/start-dev-server.js';

// Cohere's max_tokens_per_doc on a request big enough to fan out: the chunk workers cut each document to the same
// tokens as the synchronous path, so the job's answer is the synchronous answer. (Fixture cross-encoder.)
let sync: RunningServer;
let fanOut: RunningServer;

beforeAll(async () => {
  [sync, fanOut] = await Promise.all([
    startDevServer(),
    startDevServer({ RERANK_SYNC_MAX_DOCUMENTS: '4', RERANK_DEFAULT_BATCH_SIZE: '3' }),
  ]);
});

afterAll(async () => {
  await Promise.all([sync?.stop(), fanOut?.stop()]);
});

const documents = Array.from({ length: 10 }, (_, i) => `document ${i} about python http clients, sessions and retries, number ${i * 7}`);
const rerank = async (server: RunningServer, body: unknown) => {
  const res = await fetch(`${server.url}/v2/rerank`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as { results: { index: number; relevance_score: number }[] } };
};

describe('max_tokens_per_doc in a queued job', () => {
  it('scores the same tokens as the synchronous path', async () => {
    const body = { query: 'python http library', documents, max_tokens_per_doc: 4 };
    const [direct, queued, whole] = await Promise.all([
      rerank(sync, body),
      rerank(fanOut, body),
      rerank(sync, { query: body.query, documents }),
    ]);
    expect([direct.status, queued.status]).toEqual([200, 200]);
    expect(queued.body.results.map((r) => r.index)).toEqual(direct.body.results.map((r) => r.index));
    queued.body.results.forEach((r, i) => expect(r.relevance_score).toBeCloseTo(direct.body.results[i]!.relevance_score, 9));
    // And the cut mattered: the whole documents score differently.
    expect(whole.body.results.map((r) => r.relevance_score)).not.toEqual(direct.body.results.map((r) => r.relevance_score));
  });
});
