import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolve } from 'node:path';
import { sigmoid } from '../../shared/core/score-activation.js';
import { loadOnnxCrossEncoder, type OnnxCrossEncoder } from '../../shared/scoring/onnx-cross-encoder.js';
import { startDevServer, type RunningServer } from '../support/start-dev-server.js';

const QUERY = 'python http library';
const DOCS = [
  'urllib is a built-in Python library for HTTP requests',
  'requests is a popular third-party HTTP library for Python',
  'httpx is a modern async HTTP client for Python',
  'The giant panda is a bear species endemic to China',
  'HTTP/2 multiplexes streams over a single TCP connection',
];

let server: RunningServer;
let scorer: OnnxCrossEncoder;
let expected: number[];

const post = async (path: string, body: unknown, headers: Record<string, string> = {}) => {
  const res = await fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown>, headers: res.headers };
};

const chatBody = (data: unknown) => ({
  model: 'tinybert-l2-fixture',
  messages: [{ role: 'user', content: typeof data === 'string' ? data : JSON.stringify(data) }],
  stream: false,
});

/** The same (index, score) pairs every dialect must return: real ONNX logits, sigmoid, sorted desc. */
function expectRanked(pairs: { index: number; score: number }[], topN = DOCS.length): void {
  expect(pairs).toHaveLength(topN);
  const all = expected.map((score, index) => ({ index, score })).sort((a, b) => b.score - a.score || a.index - b.index);
  expect(pairs.map((p) => p.index)).toEqual(all.slice(0, topN).map((p) => p.index));
  for (const p of pairs) expect(p.score).toBeCloseTo(expected[p.index] as number, 6);
  for (let i = 1; i < pairs.length; i++)
    expect((pairs[i - 1] as { score: number }).score).toBeGreaterThanOrEqual((pairs[i] as { score: number }).score);
}

beforeAll(async () => {
  server = await startDevServer();
  scorer = await loadOnnxCrossEncoder({
    id: 'reference',
    folder: resolve(import.meta.dirname, '../../models/tinybert-l2-fixture'),
    threads: 1,
  });
  expected = (await scorer.score(QUERY, DOCS)).scores.map(sigmoid);
});

afterAll(async () => {
  await server?.stop();
  await scorer?.close();
});

describe('OpenAI-compatible dialect over HTTP', () => {
  it('ranks the seed example with real ONNX scores, without documents by default', async () => {
    const { status, body } = await post('/v1/rerank', { model: 'tinybert-l2-fixture', query: QUERY, documents: DOCS });
    expect(status).toBe(200);
    const results = body['results'] as { index: number; relevance_score: number; document?: unknown }[];
    expectRanked(results.map((r) => ({ index: r.index, score: r.relevance_score })));
    expect(results.every((r) => !('document' in r))).toBe(true);
    expect(body['model']).toBe('tinybert-l2-fixture');
    expect((body['usage'] as { total_tokens: number }).total_tokens).toBeGreaterThan(0);
  });

  it('honours top_n and return_documents on /rerank too', async () => {
    const { status, body } = await post('/rerank', { query: QUERY, documents: DOCS, top_n: 2, return_documents: true });
    expect(status).toBe(200);
    const results = body['results'] as { index: number; relevance_score: number; document: { text: string } }[];
    expectRanked(
      results.map((r) => ({ index: r.index, score: r.relevance_score })),
      2,
    );
    for (const r of results) expect(r.document.text).toBe(DOCS[r.index]);
  });
});

describe('DashScope dialect over HTTP', () => {
  it('answers output.results with request_id', async () => {
    const { status, body } = await post('/api/v1/services/rerank/text-rerank/text-rerank', {
      model: 'tinybert-l2-fixture',
      input: { query: QUERY, documents: DOCS },
      parameters: { top_n: 3, return_documents: true },
    });
    expect(status).toBe(200);
    const results = (body['output'] as { results: { index: number; relevance_score: number; document: { text: string } }[] }).results;
    expectRanked(
      results.map((r) => ({ index: r.index, score: r.relevance_score })),
      3,
    );
    for (const r of results) expect(r.document.text).toBe(DOCS[r.index]);
    expect(typeof body['request_id']).toBe('string');
  });
});

describe('chat-based dialect over HTTP', () => {
  it('replies with the results JSON string in choices[0].message.content', async () => {
    const { status, body } = await post(
      '/v1/chat/completions',
      chatBody({ query: QUERY, candidates: DOCS, top_k: 4, include_docs: false }),
    );
    expect(status).toBe(200);
    const choice = (body['choices'] as { message: { role: string; content: string } }[])[0];
    expect(choice?.message.role).toBe('assistant');
    const content = JSON.parse(choice?.message.content ?? '') as { results: { index: number; score: number; document?: string }[] };
    expectRanked(content.results, 4);
    expect(content.results.every((r) => !('document' in r))).toBe(true);
    expect(body['object']).toBe('chat.completion');
  });

  it('includes document strings unless include_docs is false', async () => {
    const { body } = await post('/v1/chat/completions', chatBody({ query: QUERY, candidates: DOCS }));
    const content = JSON.parse((body['choices'] as { message: { content: string } }[])[0]?.message.content ?? '') as {
      results: { index: number; document: string }[];
    };
    for (const r of content.results) expect(r.document).toBe(DOCS[r.index]);
  });
});

describe('models', () => {
  it('lists the configured models OpenAI-style', async () => {
    const res = await fetch(`${server.url}/v1/models`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ object: 'list', data: [{ id: 'tinybert-l2-fixture', object: 'model' }] });
  });

  it('rejects an unknown model with a 400 listing the served ones', async () => {
    const { status, body } = await post('/v1/rerank', { model: 'nope', query: QUERY, documents: DOCS });
    expect(status).toBe(400);
    expect((body['error'] as { message: string }).message).toContain('tinybert-l2-fixture');
  });
});
