import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevServer, type RunningServer } from '../support/start-dev-server.js';

/**
 * Weaviate's reranker-transformers protocol under a prefix the operator set, over a real server, sent as Weaviate's Go
 * module sends it (modules/reranker-transformers/clients): `RERANKER_INFERENCE_API=http://weaviate:<key>@host/reranker/v1`
 * makes Go send the key as Basic auth; its POST carries no Content-Type; it waits on `/.well-known/ready` and reads `/meta`.
 */
const KEY = 'sk-weaviate-0123456789';
const PREFIX = '/reranker/v1';
const BASIC = `Basic ${Buffer.from(`weaviate:${KEY}`).toString('base64')}`;
const QUERY = 'python http library';
const DOCS = [
  'urllib is a built-in Python library for HTTP requests',
  'the weather in Lisbon is mild in winter',
  'requests is a popular third-party HTTP library for Python',
];

let server: RunningServer;

beforeAll(async () => {
  server = await startDevServer({ RERANK_API_KEYS: KEY, RERANK_WEAVIATE_PREFIX: PREFIX });
});

afterAll(async () => {
  await server?.stop();
});

/** A POST as Go's http.Client sends a bytes.Reader body: no Content-Type header at all. */
const weaviatePost = async (body: unknown, authorization = BASIC) => {
  const res = await fetch(`${server.url}${PREFIX}/rerank`, {
    method: 'POST',
    headers: { authorization },
    body: new Blob([JSON.stringify(body)]),
  });
  return { status: res.status, contentType: res.headers.get('content-type'), body: (await res.json()) as unknown };
};

describe("Weaviate's reranker-transformers protocol under RERANK_WEAVIATE_PREFIX", () => {
  it('is ready (public, as Weaviate polls it at start-up) and describes its model at /meta (with the key)', async () => {
    expect((await fetch(`${server.url}${PREFIX}/.well-known/ready`)).status).toBe(200);
    const meta = await fetch(`${server.url}${PREFIX}/meta`, { headers: { authorization: BASIC } });
    expect(meta.status).toBe(200);
    expect(await meta.json()).toEqual({ model: { _name_or_path: 'tinybert-l2-fixture' }, models: ['tinybert-l2-fixture'] });
    expect((await fetch(`${server.url}${PREFIX}/meta`)).status).toBe(401);
  });

  it('scores every document in input order, as the OpenAI-compatible route ranks them', async () => {
    const { status, body } = await weaviatePost({ query: QUERY, documents: DOCS, property: 'content' });
    expect(status).toBe(200);
    const openai = await fetch(`${server.url}/v1/rerank`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${KEY}` },
      body: JSON.stringify({ query: QUERY, documents: DOCS }),
    });
    const ranked = ((await openai.json()) as { results: { index: number; relevance_score: number }[] }).results;
    const inInputOrder = [...ranked].sort((a, b) => a.index - b.index);
    expect(body).toEqual({ query: QUERY, scores: inInputOrder.map((r) => ({ document: DOCS[r.index], score: r.relevance_score })) });
  });

  it('answers failures as {error}, which Weaviate quotes: a wrong key, a bad body, a wrong Content-Type', async () => {
    const denied = await weaviatePost({ query: QUERY, documents: DOCS }, `Basic ${Buffer.from('weaviate:sk-wrong').toString('base64')}`);
    expect(denied).toMatchObject({
      status: 401,
      body: { error: expect.stringMatching(/^invalid API key: the Basic password .*RERANKER_INFERENCE_API/) },
    });
    const bad = await weaviatePost({ query: QUERY, documents: 'one' });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ error: expect.stringContaining('documents') });
    const typed = await fetch(`${server.url}${PREFIX}/rerank`, {
      method: 'POST',
      headers: { authorization: BASIC, 'content-type': 'text/plain' },
      body: '{}',
    });
    expect(typed.status).toBe(415);
  });

  it('is served only under the prefix set, and described there in /openapi.json', async () => {
    expect((await fetch(`${server.url}/weaviate/.well-known/ready`)).status).toBe(404);
    const doc = (await (await fetch(`${server.url}/openapi.json`)).json()) as { paths: Record<string, unknown> };
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining([`${PREFIX}/rerank`, `${PREFIX}/meta`, `${PREFIX}/.well-known/ready`]));
  });
});
