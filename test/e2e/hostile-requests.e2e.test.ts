import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REQUEST_BOUNDS } from '../../shared/core/request-bounds.js';
import { startDevServer, type RunningServer } from '../support/start-dev-server.js';

// Issue 17: one boost request froze the server; requests that cannot be queued skipped the sync limits;
// any content type was parsed as JSON (a CORS-simple POST from any web page could drive a key-less server).
let server: RunningServer;

type Json = Record<string, unknown>;

const post = async (path: string, body: unknown) => {
  const res = await fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Json };
};

const RAG_PATH = '/tool-runtime/rag-tool/rerank';
const words = (n: number, seed: number) => Array.from({ length: n }, (_, i) => `w${(i * 7919 + seed) % 5003}`).join(' ');

beforeAll(async () => {
  server = await startDevServer();
});

afterAll(async () => {
  await server?.stop();
});

describe('boost strategy bounds', () => {
  it('refuses tens of thousands of terms with a 400 in the Llama Stack envelope', async () => {
    const terms = Array.from({ length: 20_000 }, (_, i) => `term${i}`);
    const { status, body } = await post(RAG_PATH, {
      query: 'q',
      retrieved_docs: Array.from({ length: 50 }, (_, i) => words(200, i)),
      rerank_strategy: 'boost',
      rerank_config: { boost: { terms } },
    });
    expect(status).toBe(400);
    expect(JSON.stringify(body['error'])).toContain('rerank_config.boost.terms');
  });

  it('keeps /health answering while the largest allowed boost request is scored', async () => {
    // The most and longest terms allowed over 64 documents: the model scores off the event loop and the
    // terms are matched in one pass per document, so a /health sent after it is answered before it.
    const terms = Array.from({ length: REQUEST_BOUNDS.maxBoostTerms }, (_, i) =>
      `w${i} ${'x'.repeat(REQUEST_BOUNDS.maxBoostTermChars - 8)}`.slice(0, REQUEST_BOUNDS.maxBoostTermChars),
    );
    const documents = Array.from({ length: 64 }, (_, i) => words(100, i));
    let boostDone = false;
    const boost = post(RAG_PATH, {
      query: 'w1 w2',
      retrieved_docs: documents,
      rerank_strategy: 'boost',
      rerank_config: { boost: { terms: ['w1', ...terms.slice(1)] } },
    }).then((reply) => {
      boostDone = true;
      return reply;
    });
    const health = await fetch(`${server.url}/health`);
    const answeredBeforeBoost = !boostDone;
    expect(health.status).toBe(200);
    const reply = await boost;
    expect(reply.status, JSON.stringify(reply.body).slice(0, 300)).toBe(200);
    expect(answeredBeforeBoost).toBe(true);
  });
});

describe('synchronous limits for requests that cannot be queued', () => {
  it('answers 10,000 documents with max_chunks_per_doc with 413 in the OpenAI envelope, not a 500 after 30 s', async () => {
    const documents = Array.from({ length: 10_000 }, (_, i) => `document ${i}`);
    const { status, body } = await post('/v1/rerank', { query: 'q', documents, max_chunks_per_doc: 1_000 });
    expect(status).toBe(413);
    expect(body['error']).toMatchObject({ message: expect.stringMatching(/cannot run as a job/) as unknown });
  });

  it('bounds max_chunks_per_doc itself', async () => {
    const { status, body } = await post('/v1/rerank', { query: 'q', documents: ['a'], max_chunks_per_doc: 1_000_000 });
    expect(status).toBe(400);
    expect(body['error']).toMatchObject({ param: 'max_chunks_per_doc' });
  });

  it('answers an over-limit boost, upstream or unqueueable-endpoint request with 413 in its own envelope', async () => {
    const retrieved_docs = Array.from({ length: 300 }, (_, i) => `doc ${i}`);
    for (const extra of [{ rerank_strategy: 'boost', rerank_config: { boost: { terms: ['doc'] } } }, { rerank_strategy: 'default' }]) {
      const { status, body } = await post(RAG_PATH, { query: 'q', retrieved_docs, ...extra });
      expect(status).toBe(413);
      expect(body['error']).toMatchObject({ detail: expect.stringMatching(/cannot run as a job/) as unknown });
    }
  });
});

describe('request paths', () => {
  it('answers a path over RERANK_MAX_PATH_CHARS (2,048) with 414 before auth or routing, and serves one at the limit', async () => {
    // A run of slashes then another character made the old trailing-slash regex quadratic (issue 21, item 3).
    const hostile = await fetch(`${server.url}/docs${'/'.repeat(8_000)}x`);
    expect(hostile.status).toBe(414);
    expect(await hostile.json()).toMatchObject({
      error: { type: 'invalid_request_error', code: 'uri_too_long', message: expect.stringMatching(/at most 2048/) },
    });
    const atLimit = await fetch(`${server.url}/v1/${'a'.repeat(2_048 - 4)}`);
    expect(atLimit.status).toBe(404);
    const trailing = await fetch(`${server.url}/health${'/'.repeat(2_000)}`);
    expect(trailing.status).toBe(200);
  });
});

describe('POST bodies must be sent as application/json', () => {
  const send = async (path: string, body: string, headers: Record<string, string>) => {
    const res = await fetch(`${server.url}${path}`, { method: 'POST', headers, body });
    return { status: res.status, body: (await res.json()) as Json };
  };
  const openai = JSON.stringify({ query: 'q', documents: ['a', 'b'] });

  it('refuses the types a web page can send cross-origin without a preflight with 415 in the dialect envelope', async () => {
    for (const type of ['text/plain', 'text/plain;charset=UTF-8', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
      const { status, body } = await send('/v1/rerank', openai, { 'content-type': type });
      expect(status, type).toBe(415);
      expect(body['error']).toMatchObject({ code: 'unsupported_media_type' });
    }
    // A Blob body without a type: fetch sends no Content-Type at all.
    const untyped = await fetch(`${server.url}/v1/rerank`, { method: 'POST', body: new Blob([openai]) });
    expect(untyped.status).toBe(415);
    const dashscope = await send(
      '/api/v1/services/rerank/text-rerank/text-rerank',
      JSON.stringify({ input: { query: 'q', documents: ['a'] } }),
      { 'content-type': 'text/plain' },
    );
    expect(dashscope.status).toBe(415);
    expect(dashscope.body).toMatchObject({ code: 'UnsupportedMediaType' });
  });

  it('accepts application/json with a UTF-8 charset', async () => {
    expect((await send('/v1/rerank', openai, { 'content-type': 'application/json; charset=utf-8' })).status).toBe(200);
    expect((await send('/v1/rerank', openai, { 'content-type': 'Application/JSON' })).status).toBe(200);
  });
});
