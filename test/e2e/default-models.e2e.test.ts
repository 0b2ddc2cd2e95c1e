import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevServer, type RunningServer } from '../support/start-dev-server.js';

// `npm start` with no configuration: the models the README promises, best measured first.
let server: RunningServer;
let fanOutServer: RunningServer;

beforeAll(async () => {
  [server, fanOutServer] = await Promise.all([
    startDevServer({ RERANK_MODELS: '' }),
    startDevServer({ RERANK_MODELS: '', RERANK_SYNC_MAX_DOCUMENTS: '8', RERANK_DEFAULT_BATCH_SIZE: '6' }),
  ]);
});

afterAll(async () => {
  await Promise.all([server?.stop(), fanOutServer?.stop()]);
});

describe('the default models', () => {
  it('lists the hybrid first, then its parts and the fixture', async () => {
    const body = (await (await fetch(`${server.url}/v1/models`)).json()) as { data: { id: string }[] };
    expect(body.data.map((m) => m.id)).toEqual(['use-lite-bm25', 'use-lite', 'bm25', 'tinybert-l2-fixture']);
  });

  it('GET /info names the default, each model with its token window and kind, the aliases and the limits', async () => {
    const info = (await (await fetch(`${server.url}/info`)).json()) as Record<string, unknown>;
    expect(info).toMatchObject({
      model_id: 'use-lite-bm25',
      max_input_length: 65_536,
      max_client_batch_size: 10_000,
      // The default (a hybrid with BM25) has no token window: TEI's token fields carry characters, and say so.
      units: { max_input_length: 'characters', max_batch_tokens: 'characters' },
      models: [
        { id: 'use-lite-bm25', default: true, kind: 'hybrid', max_input_tokens: null, components: ['use-lite', 'bm25'] },
        { id: 'use-lite', default: false, kind: 'model folder' },
        { id: 'bm25', default: false, kind: 'lexical', max_input_tokens: null },
        { id: 'tinybert-l2-fixture', default: false, kind: 'model folder', max_input_tokens: 512 },
      ],
      limits: { max_documents: 10_000, sync_max_documents: 256 },
      features: { jobs: true, batches: true, files: true },
    });
    expect((info['aliases'] as Record<string, string>)['rerank-v3.5']).toBe('use-lite-bm25');
  });

  it('ranks the obviously relevant document first with the default model', async () => {
    const res = await fetch(`${server.url}/v1/rerank`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        query: 'python http library',
        documents: [
          'The giant panda is a bear species endemic to China',
          'requests is a popular third-party HTTP library for Python',
          'Bamboo forests grow quickly in warm climates',
        ],
      }),
    });
    const body = (await res.json()) as { model: string; results: { index: number; relevance_score: number }[] };
    expect(res.status).toBe(200);
    expect(body.model).toBe('use-lite-bm25');
    expect(body.results[0]?.index).toBe(1);
    expect(body.results.every((r) => r.relevance_score >= 0 && r.relevance_score <= 1)).toBe(true);
  });

  it('gives a document the same default-model score whatever else is sent (absolute, not min-max)', async () => {
    const score = async (documents: string[]) => {
      const res = await fetch(`${server.url}/v1/rerank`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: 'python http library', documents }),
      });
      const body = (await res.json()) as { results: { index: number; relevance_score: number }[] };
      return body.results.find((r) => r.index === 0)!.relevance_score;
    };
    const httpx = 'httpx is a fully featured HTTP client library for Python 3';
    const alone = await score([httpx]);
    const withBetter = await score([httpx, 'requests is a popular third-party HTTP library for Python']);
    expect(alone).toBeGreaterThan(0);
    expect(alone).toBeLessThan(1);
    expect(withBetter).toBeCloseTo(alone, 6);
  });

  it('serves the bi-encoder and BM25 on their own by name', async () => {
    for (const model of ['use-lite', 'bm25']) {
      const res = await fetch(`${server.url}/v1/rerank`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ model, query: 'http library for python', documents: ['pandas eat bamboo', 'an http library for python'] }),
      });
      const body = (await res.json()) as { results: { index: number }[] };
      expect(body.results[0]?.index).toBe(1);
    }
  });

  it('fans the hybrid out over the queue (each chunk scored on its own: absolute scores) with the synchronous ranking', async () => {
    const topics = [
      'python http client library',
      'panda bears eat bamboo',
      'http requests in python',
      'lambda functions on aws',
      'rerank search results',
    ];
    const documents = Array.from({ length: 30 }, (_, i) => `${topics[i % topics.length]} number ${i} ${'filler '.repeat(i % 4)}`);
    const body = JSON.stringify({ query: 'python http library', documents, top_n: 10 });
    const call = (s: RunningServer) =>
      fetch(`${s.url}/v1/rerank`, { method: 'POST', headers: { 'content-type': 'application/json' }, body }).then(async (r) => ({
        headers: r.headers,
        body: (await r.json()) as { results: { index: number; relevance_score: number }[] },
      }));
    const [sync, fanned] = await Promise.all([call(server), call(fanOutServer)]);
    expect(sync.headers.get('x-rerank-job-id')).toBeNull();
    expect(fanned.headers.get('x-rerank-job-id')).toBeTruthy();
    expect(fanned.body.results.map((r) => r.index)).toEqual(sync.body.results.map((r) => r.index));
    fanned.body.results.forEach((r, i) => expect(r.relevance_score).toBeCloseTo(sync.body.results[i]?.relevance_score ?? NaN, 5));
  });
});
