import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  RerankApiError,
  RerankClient,
  type RerankJob,
  type RerankJobProgress,
  type RerankModeName,
  type RerankResult,
} from '../../shared/client/index.js';
import { startDevServer, type RunningServer } from '../support/start-dev-server.js';

// The client SDK against the real local server (npm start) in every mode.
const KEY = 'sk-client-e2e';
const MODES: readonly RerankModeName[] = ['openai', 'dashscope', 'chat'];

const QUERY = 'python http library';
const DOCS = [
  'urllib is a built-in Python library for HTTP requests',
  'pandas eat bamboo in the mountains',
  'requests is a popular third-party HTTP library for Python',
  'httpx is a modern async HTTP client for Python',
  'the tide tables for the harbour',
];
const TOPICS = [
  'backpropagation adjusts weights',
  'gradient descent on a loss',
  'pandas eat bamboo',
  'http clients for python',
  'neural networks',
];
const MANY_DOCS = Array.from({ length: 40 }, (_, i) => `document ${i}: ${TOPICS[i % 5]} ${'detail '.repeat(i % 7)}`);

let server: RunningServer;
let jobServer: RunningServer;

const baseUrl = (s: RunningServer, mode: RerankModeName): string =>
  mode === 'dashscope' ? `${s.url}/api/v1/services/rerank/text-rerank/text-rerank` : `${s.url}/v1`;

const clientFor = (s: RunningServer, mode: RerankModeName, apiKey: string | null = KEY) =>
  new RerankClient({ baseUrl: baseUrl(s, mode), mode, backoff: { initialDelayMs: 5, maxDelayMs: 50 }, ...(apiKey ? { apiKey } : {}) });

const withoutDocs = (result: RerankResult) => result.results.map(([index, score]) => [index, score]);

beforeAll(async () => {
  [server, jobServer] = await Promise.all([
    startDevServer({ RERANK_API_KEYS: KEY }),
    // Above 8 documents a request becomes a job of 5-document chunks; dialect endpoints answer 202 almost at once.
    startDevServer({ RERANK_API_KEYS: KEY, RERANK_SYNC_MAX_DOCUMENTS: '8', RERANK_DEFAULT_BATCH_SIZE: '5', RERANK_JOB_WAIT_MS: '1' }),
  ]);
});

afterAll(async () => {
  await Promise.all([server?.stop(), jobServer?.stop()]);
});

describe('rerank in every mode', () => {
  it('all three modes give the same ranking, sorted by score, one result per document', async () => {
    const results = await Promise.all(MODES.map((mode) => clientFor(server, mode).rerank(QUERY, DOCS)));
    const [openai, dashscope, chat] = results as [RerankResult, RerankResult, RerankResult];
    expect(openai.results).toHaveLength(DOCS.length);
    expect(new Set(openai.results.map(([i]) => i))).toEqual(new Set(DOCS.keys()));
    const scores = openai.results.map(([, s]) => s);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    expect(dashscope.results).toEqual(openai.results);
    expect(chat.results).toEqual(openai.results);
    for (const r of results) expect(r.usage.totalTokens).toBeGreaterThan(0);
  });

  it.each(MODES)('%s: topK keeps the best k; includeDocs returns the documents as sent', async (mode) => {
    const client = clientFor(server, mode);
    const all = await client.rerank(QUERY, DOCS);
    const top = await client.rerank(QUERY, DOCS, { topK: 2, includeDocs: true });
    expect(top.results).toHaveLength(2);
    expect(withoutDocs(top)).toEqual(all.results.slice(0, 2));
    for (const [index, , document] of top.results) expect(document).toBe(DOCS[index]);
    expect((await client.rerank(QUERY, DOCS, { topK: 0 })).results).toEqual([]);
  });

  it.each(MODES)('%s: raw scores are logits in the same order; a threshold drops the rest', async (mode) => {
    const client = clientFor(server, mode);
    const sigmoid = await client.rerank(QUERY, DOCS);
    const raw = await client.rerank(QUERY, DOCS, { rawScores: true });
    expect(raw.results.map(([i]) => i)).toEqual(sigmoid.results.map(([i]) => i));
    for (const [k, [, logit]] of raw.results.entries()) expect(1 / (1 + Math.exp(-logit))).toBeCloseTo(sigmoid.results[k]?.[1] ?? NaN, 5);
    const cut = sigmoid.results[2]?.[1] as number;
    const kept = await client.rerank(QUERY, DOCS, { threshold: cut });
    expect(kept.results).toEqual(sigmoid.results.filter(([, s]) => s >= cut));
  });

  it.each([
    ['openai', 'invalid_api_key'],
    ['dashscope', 'InvalidApiKey'],
    ['chat', 'invalid_api_key'],
  ] as const)('%s: a wrong key is a RerankApiError 401 with the server message and code', async (mode, code) => {
    const error = await clientFor(server, mode, 'sk-wrong')
      .rerank(QUERY, DOCS)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RerankApiError);
    expect(error).toMatchObject({ status: 401, code, message: expect.stringMatching(/^invalid API key: /) });
    expect((error as RerankApiError).requestId).toBeTruthy();
    const missing = await clientFor(server, mode, null)
      .rerank(QUERY, DOCS)
      .catch((e: unknown) => e);
    expect(missing).toMatchObject({ name: 'RerankApiError', status: 401, message: expect.stringMatching(/missing API key/) });
  });

  it.each([
    ['openai', 'top_n'],
    ['dashscope', 'parameters.top_n'],
    ['chat', 'top_k'],
  ] as const)('%s: bad input is a RerankApiError 400 naming the parameter', async (mode, param) => {
    const error = await clientFor(server, mode)
      .rerank(QUERY, DOCS, { topK: -1 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RerankApiError);
    expect((error as RerankApiError).status).toBe(400);
    expect((error as RerankApiError).message).toContain(param);
    if (mode !== 'dashscope') expect((error as RerankApiError).param).toBe(param);
  });
});

describe('jobs: 40 documents fan out into 8 chunks', () => {
  let expected: RerankResult;

  beforeAll(async () => {
    expected = await clientFor(server, 'openai').rerank(QUERY, MANY_DOCS, { topK: 10, includeDocs: true });
  });

  it.each(MODES)('%s: submit, then wait with progress callbacks, gives the synchronous ranking', async (mode) => {
    const client = clientFor(jobServer, mode);
    const job = await client.jobs.submit(QUERY, MANY_DOCS, { topK: 10, includeDocs: true });
    expect(job).toMatchObject({ status: 'running', mode, progress: { chunksTotal: 8 } });
    const seen: { progress: RerankJobProgress; job: RerankJob }[] = [];
    const result = await client.jobs.wait(job, { onProgress: (progress, view) => seen.push({ progress, job: view }) });
    expect(result.results).toEqual(expected.results);
    expect(seen.length).toBeGreaterThan(0);
    const done = seen.map((s) => s.progress.chunksDone);
    expect(done).toEqual([...done].sort((a, b) => a - b));
    expect(seen.every((s) => s.progress.chunksTotal === 8)).toBe(true);
    expect(seen.at(-1)).toMatchObject({ progress: { chunksDone: 8, chunksTotal: 8 }, job: { status: 'succeeded' } });
  });

  it.each(MODES)('%s: a plain rerank call that the server turns into a job returns the same result', async (mode) => {
    const result = await clientFor(jobServer, mode).rerank(QUERY, MANY_DOCS, { topK: 10, includeDocs: true });
    expect(result.results).toEqual(expected.results);
  });

  it('waiting by id needs the key that submitted the job; unknown ids are a 404 RerankApiError', async () => {
    const job = await clientFor(jobServer, 'openai').jobs.submit(QUERY, MANY_DOCS.slice(0, 12));
    expect((await clientFor(jobServer, 'chat').jobs.wait(job.id)).results).toHaveLength(12);
    const error = await clientFor(jobServer, 'openai')
      .jobs.wait('00000000-0000-0000-0000-000000000000')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RerankApiError);
    expect(error).toMatchObject({ status: 404, code: 'not_found' });
  });

  it('an AbortSignal stops the wait', async () => {
    const client = clientFor(jobServer, 'chat');
    const job = await client.jobs.submit(QUERY, MANY_DOCS);
    const controller = new AbortController();
    controller.abort(new Error('caller gave up'));
    await expect(client.jobs.wait(job, { signal: controller.signal })).rejects.toThrow('caller gave up');
  });
});
