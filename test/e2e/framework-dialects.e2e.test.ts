import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevServer, type RunningServer } from '../support/start-dev-server.js';

/**
 * The shapes RAG frameworks call (NVIDIA NIM, vLLM score, Mixedbread, Vertex AI), over `npm start`: each answers its own body
 * synchronously, through a job its endpoint waits for, and as a 202 job whose poll carries the result in the same
 * shape; each errors in its own envelope. The ranking is the OpenAI-compatible endpoint's for the same texts.
 */
const KEY = 'sk-framework-dialects';
const QUERY = 'how do python programs send http requests';
const FEW = [
  'urllib is a built-in Python library for HTTP requests',
  'pandas eat bamboo in the mountains',
  'requests is a popular HTTP library for Python',
];
/** More than RERANK_SYNC_MAX_DOCUMENTS: a job of 7-document chunks. */
const MANY = Array.from({ length: 20 }, (_, i) => `${FEW[i % FEW.length]} (${i})`);

type Ranked = readonly (readonly [index: number, score: number])[];

interface FrameworkCase {
  readonly name: string;
  readonly path: string;
  /** The framework's body for these texts. */
  body(query: string, documents: readonly string[]): Record<string, unknown>;
  /** The reply's ranking, best first. */
  ranked(reply: unknown): Ranked;
  /** The OpenAI-compatible body's `raw_scores` giving the same scores. */
  readonly rawScores: boolean;
  /** A body it must refuse, and what its error body then looks like. */
  readonly bad: Record<string, unknown>;
  errorShape(body: unknown): void;
}

const bestFirst = (ranked: Ranked): Ranked => [...ranked].sort((a, b) => b[1] - a[1] || a[0] - b[0]);

const CASES: readonly FrameworkCase[] = [
  {
    name: 'NVIDIA NIM',
    path: '/v1/ranking',
    body: (query, documents) => ({
      model: 'nvidia/nv-rerankqa-mistral-4b-v3',
      query: { text: query },
      passages: documents.map((text) => ({ text })),
      truncate: 'END',
    }),
    ranked: (reply) => (reply as { rankings: { index: number; logit: number }[] }).rankings.map((r) => [r.index, r.logit] as const),
    rawScores: true,
    bad: { query: 'not an object', passages: [{ text: 'a' }] },
    errorShape: (body) => expect(body).toEqual({ detail: expect.stringContaining('query') }),
  },
  {
    name: 'vLLM score',
    path: '/v1/score',
    body: (query, documents) => ({ model: 'BAAI/bge-reranker-v2-m3', text_1: query, text_2: documents }),
    ranked(reply) {
      const body = reply as { object: string; data: { index: number; object: string; score: number }[] };
      expect(body.object).toBe('list');
      // vLLM answers in input order; the ranking is ours to sort.
      expect(body.data.map((d) => d.index)).toEqual(body.data.map((_, i) => i));
      return bestFirst(body.data.map((d) => [d.index, d.score] as const));
    },
    rawScores: false,
    bad: { text_1: ['q1', 'q2'], text_2: ['a', 'b'] },
    errorShape: (body) =>
      expect(body).toMatchObject({ message: expect.stringContaining('text_1'), error: { type: 'invalid_request_error', param: 'text_1' } }),
  },
  {
    name: 'Mixedbread',
    path: '/v1/reranking',
    body: (query, documents) => ({ model: 'mixedbread-ai/mxbai-rerank-large-v2', query, input: documents }),
    ranked: (reply) => (reply as { data: { index: number; score: number }[] }).data.map((r) => [r.index, r.score] as const),
    rawScores: false,
    bad: { query: 'q', input: [['not', 'text']] },
    errorShape: (body) => expect(body).toMatchObject({ message: expect.stringContaining('input[0]'), error: { param: 'input[0]' } }),
  },
  {
    name: 'Vertex AI',
    path: '/v1/projects/my-project/locations/global/rankingConfigs/default_ranking_config:rank',
    body: (query, documents) => ({
      model: 'semantic-ranker-default@latest',
      query,
      records: documents.map((content, i) => ({ id: `r${i}`, content })),
    }),
    ranked(reply) {
      const records = (reply as { records: { id: string; content: string; score: number }[] }).records;
      // Every record comes back with its id and content, a polled job's too.
      for (const record of records) expect(record.content.length).toBeGreaterThan(0);
      return records.map((r) => [Number(r.id.slice(1)), r.score] as const);
    },
    rawScores: false,
    bad: { query: 'q', records: [{ id: 'no text' }] },
    errorShape: (body) =>
      expect(body).toEqual({ error: { code: 400, message: expect.stringContaining('records[0]'), status: 'INVALID_ARGUMENT' } }),
  },
];

let server: RunningServer;

async function post(path: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${KEY}`, ...headers },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as unknown, headers: res.headers };
}

/** The OpenAI-compatible endpoint's ranking of the same texts: what every framework's shape must carry. */
async function reference(documents: readonly string[], rawScores: boolean): Promise<Ranked> {
  const reply = await post('/v1/rerank', { query: QUERY, documents, raw_scores: rawScores });
  expect(reply.status).toBe(200);
  return (reply.body as { results: { index: number; relevance_score: number }[] }).results.map(
    (r) => [r.index, r.relevance_score] as const,
  );
}

beforeAll(async () => {
  server = await startDevServer({ RERANK_API_KEYS: KEY, RERANK_SYNC_MAX_DOCUMENTS: '8', RERANK_DEFAULT_BATCH_SIZE: '7' });
});

afterAll(async () => {
  await server?.stop();
});

describe.each(CASES)('$name on $path', (c) => {
  it('answers its own shape with the ranking the OpenAI-compatible endpoint gives', async () => {
    const reply = await post(c.path, c.body(QUERY, FEW));
    expect(reply.status).toBe(200);
    expect(c.ranked(reply.body)).toEqual(await reference(FEW, c.rawScores));
  });

  it('answers a request that became a job, waited for on its endpoint, in the same shape', async () => {
    const reply = await post(c.path, c.body(QUERY, MANY));
    expect(reply.status).toBe(200);
    expect(reply.headers.get('x-rerank-job-id')).toBeTruthy();
    expect(c.ranked(reply.body)).toEqual(await reference(MANY, c.rawScores));
  });

  it('answers Prefer: respond-async with a 202 whose poll carries the result in its shape', async () => {
    const accepted = await post(c.path, c.body(QUERY, MANY), { prefer: 'respond-async' });
    expect(accepted.status).toBe(202);
    const pollUrl = (accepted.body as { poll_url: string }).poll_url;
    let view = (await (await fetch(`${server.url}${pollUrl}`, { headers: { authorization: `Bearer ${KEY}` } })).json()) as {
      status: string;
      result?: unknown;
    };
    for (let i = 0; i < 400 && view.status === 'running'; i++) {
      await new Promise((r) => setTimeout(r, 50));
      view = (await (await fetch(`${server.url}${pollUrl}`, { headers: { authorization: `Bearer ${KEY}` } })).json()) as {
        status: string;
        result?: unknown;
      };
    }
    expect(view.status).toBe('succeeded');
    expect(c.ranked(view.result)).toEqual(await reference(MANY, c.rawScores));
  });

  it('errors in its own envelope: a bad body (400) and a wrong key (401)', async () => {
    const bad = await post(c.path, c.bad);
    expect(bad.status).toBe(400);
    c.errorShape(bad.body);
    const unauthorized = await post(c.path, c.body(QUERY, FEW), { authorization: 'Bearer sk-wrong' });
    expect(unauthorized.status).toBe(401);
    expect(JSON.stringify(unauthorized.body)).toContain('API key');
  });
});

describe("Cohere's billed search units on /v1/rerank and /v2/rerank", () => {
  const units = (body: unknown) => (body as { meta: { billed_units: { search_units: number } } }).meta.billed_units.search_units;

  it('counts one per started 100 documents, in v1 and v2 replies, synchronous or a job polled without its request', async () => {
    const few = await post('/v1/rerank', { query: QUERY, documents: FEW });
    expect(few.status).toBe(200);
    expect((few.body as { meta: unknown }).meta).toEqual({ api_version: { version: '1' }, billed_units: { search_units: 1 } });
    const documents = Array.from({ length: 150 }, (_, i) => `${FEW[i % FEW.length]} (${i})`);
    const waited = await post('/v2/rerank', { query: QUERY, documents, top_n: 2 });
    expect(waited.status).toBe(200);
    expect(units(waited.body)).toBe(2);
    const accepted = await post('/v1/rerank', { query: QUERY, documents, top_n: 2 }, { prefer: 'respond-async' });
    expect(accepted.status).toBe(202);
    const pollUrl = (accepted.body as { poll_url: string }).poll_url;
    let view = { status: 'running' } as { status: string; result?: unknown };
    for (let i = 0; i < 400 && view.status === 'running'; i++) {
      if (i > 0) await new Promise((r) => setTimeout(r, 50));
      view = (await (await fetch(`${server.url}${pollUrl}`, { headers: { authorization: `Bearer ${KEY}` } })).json()) as typeof view;
    }
    expect(view.status).toBe('succeeded');
    expect(units(view.result)).toBe(2);
  });
});

describe("Elasticsearch's hugging_face rerank service: TEI's dialect on /rerank", () => {
  it('answers its body (texts, query, return_text, top_n) with the bare array it parses, top_n honoured', async () => {
    const reply = await post('/rerank', { texts: FEW, query: QUERY, return_text: true, top_n: 2 });
    expect(reply.status).toBe(200);
    const ranks = reply.body as { index: number; score: number; text: string }[];
    expect(ranks.map((r) => [r.index, r.score])).toEqual((await reference(FEW, false)).slice(0, 2));
    // HuggingFaceRerankResponseEntity throws on any key but index, score | relevance_score, text | document.
    for (const rank of ranks) expect(Object.keys(rank).sort()).toEqual(['index', 'score', 'text']);
    for (const rank of ranks) expect(rank.text).toBe(FEW[rank.index]);
  });
});
