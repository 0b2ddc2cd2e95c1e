import ZeroEntropy, { APIError } from 'zeroentropy';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevServer, type RunningServer } from '../../support/start-dev-server.js';
import { DOCS, QUERY, SDK_KEY } from './sdk-server.js';

// ZeroEntropy's client, unchanged but for its base URL (`.../v1`; models.rerank() posts to /v1/models/rerank), against
// `npm start` serving the fixture cross-encoder. Above 4 documents a request is past the synchronous limits: `fast`
// is then a 413 naming "slow", `slow` (or no latency) runs as a job of 3-document chunks that the route waits for.
let server: RunningServer;

beforeAll(async () => {
  server = await startDevServer({ RERANK_API_KEYS: SDK_KEY, RERANK_SYNC_MAX_DOCUMENTS: '4', RERANK_DEFAULT_BATCH_SIZE: '3' });
});

afterAll(async () => {
  await server?.stop();
});

const MANY = Array.from({ length: 10 }, (_, i) => `${DOCS[i % DOCS.length]} (copy ${i})`);

const client = (key = SDK_KEY) => new ZeroEntropy({ apiKey: key, baseURL: `${server.url}/v1`, maxRetries: 0 });

/** Our answer to the same texts on /v1/rerank, over plain HTTP: what the SDK must report. */
async function direct(documents: readonly string[]): Promise<{ index: number; relevance_score: number }[]> {
  const res = await fetch(`${server.url}/v1/rerank`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${SDK_KEY}` },
    body: JSON.stringify({ query: QUERY, documents }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { results: { index: number; relevance_score: number }[] }).results;
}

const failureOf = (promise: Promise<unknown>): Promise<unknown> =>
  promise.then(
    () => undefined,
    (e: unknown) => e,
  );

describe('zeroentropy models.rerank (POST /v1/models/rerank)', () => {
  it('ranks as /v1/rerank does, fast: results, top_n, latencies, bytes and tokens', async () => {
    const reply = await client().models.rerank({ model: 'zerank-2', query: QUERY, documents: DOCS, top_n: 2, latency: 'fast' });
    const expected = await direct(DOCS);
    expect(reply.results.map((r) => [r.index, r.relevance_score])).toEqual(expected.slice(0, 2).map((r) => [r.index, r.relevance_score]));
    expect(reply.actual_latency_mode).toBe('fast');
    expect(reply.total_bytes).toBe([QUERY, ...DOCS].reduce((sum, text) => sum + Buffer.byteLength(text), 0));
    expect(reply.total_tokens).toBeGreaterThan(0);
    expect(reply.e2e_latency).toBeGreaterThanOrEqual(reply.inference_latency);
  });

  it('fast past the synchronous limits is a 413 that names "slow"; slow and no latency run as a job and answer the same ranking', async () => {
    const refused = await failureOf(client().models.rerank({ model: 'zerank-2', query: QUERY, documents: MANY, latency: 'fast' }));
    expect(refused).toBeInstanceOf(APIError);
    expect((refused as APIError).status).toBe(413);
    expect(((refused as APIError).error as { detail: string }).detail).toContain('latency "slow"');

    const expected = await direct(MANY);
    for (const latency of ['slow', undefined] as const) {
      const reply = await client().models.rerank({ model: 'zerank-2', query: QUERY, documents: MANY, ...(latency ? { latency } : {}) });
      expect(reply.actual_latency_mode).toBe('slow');
      expect(reply.results.map((r) => r.index)).toEqual(expected.map((r) => r.index));
      reply.results.forEach((r, i) => expect(r.relevance_score).toBeCloseTo(expected[i]!.relevance_score, 6));
    }
  });

  it("surfaces our message in FastAPI's {detail}: a 401 and a 400 naming the field", async () => {
    const unauthorized = await failureOf(client('sk-wrong').models.rerank({ model: 'zerank-2', query: QUERY, documents: DOCS }));
    expect((unauthorized as APIError).status).toBe(401);
    expect(((unauthorized as APIError).error as { detail: string }).detail).toContain('invalid API key');

    const bad = await failureOf(client().models.rerank({ model: 'zerank-2', query: QUERY, documents: DOCS, latency: 'soon' as 'fast' }));
    expect((bad as APIError).status).toBe(400);
    expect(((bad as APIError).error as { detail: string }).detail).toContain('latency');
  });
});
