import { describe, expect, it } from 'vitest';
import {
  RerankApiError,
  RerankClient,
  RerankJobFailedError,
  RerankResponseFormatError,
  RerankTimeoutError,
  type RerankJobProgress,
  type RerankModeName,
} from '../../../shared/client/index.js';
import { pollDelayMs } from '../../../shared/client/poll-backoff.js';
import { chatCompletion, fakeFetch, type Answer } from './fake-fetch.js';

const DOCS = ['alpha', 'beta', 'gamma'];
const FAST = { initialDelayMs: 1, maxDelayMs: 2 };

const view = (status: string, done: number, total: number, extra: Record<string, unknown> = {}) => ({
  json: {
    id: 'job-1',
    object: 'rerank.job',
    status,
    dialect: 'chat',
    model: 'tinybert-l2-fixture',
    progress: { chunks_done: done, chunks_total: total },
    poll_url: '/v1/rerank/jobs/job-1',
    ...extra,
  },
});

const chatResult = chatCompletion(
  JSON.stringify({
    results: [
      { index: 2, score: -1 },
      { index: 0, score: -3 },
      { index: 1, score: -2 },
    ],
  }),
  {
    total_tokens: 12,
  },
);

function jobsClient(mode: RerankModeName, ...script: Answer[]) {
  const fake = fakeFetch(...script);
  const baseUrl = mode === 'dashscope' ? 'http://h/api/v1/services/rerank/text-rerank/text-rerank' : 'http://h/v1';
  return { client: new RerankClient({ baseUrl, mode, fetch: fake.fetch, backoff: FAST }), calls: fake.calls };
}

describe('submit', () => {
  it.each([
    ['chat', 'http://h/v1/chat/completions'],
    ['dashscope', 'http://h/api/v1/services/rerank/text-rerank/text-rerank'],
    ['openai', 'http://h/v1/rerank/jobs'],
  ] as const)('%s posts to %s asking for an async answer', async (mode, url) => {
    const { client, calls } = jobsClient(mode, { status: 202, ...view('running', 0, 4) });
    const job = await client.jobs.submit('q', DOCS, { topK: 2 });
    expect(calls[0]).toMatchObject({ url, method: 'POST', headers: { prefer: 'respond-async' } });
    expect(job).toMatchObject({
      id: 'job-1',
      status: 'running',
      progress: { chunksDone: 0, chunksTotal: 4 },
      mode: 'chat',
      pollUrl: '/v1/rerank/jobs/job-1',
    });
    expect(job.submitted).toEqual({
      documents: DOCS,
      options: { topK: 2, includeDocs: undefined, threshold: undefined, returnRaw: undefined },
    });
  });

  it('a server that answers synchronously instead is reported, not mistaken for a job', async () => {
    const { client } = jobsClient('chat', { json: chatResult });
    await expect(client.jobs.submit('q', DOCS)).rejects.toThrow(RerankResponseFormatError);
  });
});

describe('wait', () => {
  it('polls with backoff, reports each progress change once and returns the unified result shaped like rerank', async () => {
    const { client, calls } = jobsClient(
      'chat',
      { status: 202, ...view('running', 0, 3) },
      view('running', 0, 3),
      view('running', 1, 3),
      view('running', 1, 3),
      view('running', 2, 3),
      view('succeeded', 3, 3, { result: chatResult }),
    );
    const seen: RerankJobProgress[] = [];
    const job = await client.jobs.submit('q', DOCS, { topK: 2, includeDocs: true });
    const result = await client.jobs.wait(job, { onProgress: (p) => seen.push(p) });
    expect(seen).toEqual([
      { chunksDone: 0, chunksTotal: 3 },
      { chunksDone: 1, chunksTotal: 3 },
      { chunksDone: 2, chunksTotal: 3 },
      { chunksDone: 3, chunksTotal: 3 },
    ]);
    expect(result).toEqual({
      results: [
        [2, -1, 'gamma'],
        [1, -2, 'beta'],
      ],
      usage: { totalTokens: 12 },
    });
    expect(calls.slice(1).every((c) => c.method === 'GET' && c.url === 'http://h/v1/rerank/jobs/job-1')).toBe(true);
  });

  it('by bare id, the result uses the dialect the job reports', async () => {
    const openAiBody = {
      results: [
        { index: 1, relevance_score: 0.2 },
        { index: 0, relevance_score: 0.9 },
      ],
      usage: { total_tokens: 5 },
    };
    const { client } = jobsClient('chat', view('succeeded', 1, 1, { dialect: 'openai', result: openAiBody }));
    expect((await client.jobs.wait('job-1')).results).toEqual([
      [0, 0.9],
      [1, 0.2],
    ]);
  });

  it('a failed job gives RerankJobFailedError with the reason', async () => {
    const { client } = jobsClient('chat', view('failed', 1, 3, { error: { message: 'chunk 2 failed after 3 deliveries' } }));
    const error = await client.jobs.wait('job-1').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RerankJobFailedError);
    expect(error).toMatchObject({ jobId: 'job-1', reason: 'chunk 2 failed after 3 deliveries', code: undefined });
  });

  it('a cancelled job (status failed, error.code job_cancelled) gives RerankJobFailedError with that code', async () => {
    const { client } = jobsClient('chat', view('failed', 1, 3, { error: { message: 'cancelled by the client', code: 'job_cancelled' } }));
    const error = await client.jobs.wait('job-1').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RerankJobFailedError);
    expect(error).toMatchObject({ jobId: 'job-1', reason: 'cancelled by the client', code: 'job_cancelled' });
  });

  it('transient poll failures are retried; a 404 is not', async () => {
    const flaky = jobsClient(
      'chat',
      { status: 503, text: '' },
      { status: 429, json: { error: { message: 'slow down' } } },
      view('succeeded', 1, 1, { result: chatResult }),
    );
    expect((await flaky.client.jobs.wait('job-1')).results).toHaveLength(3);
    const gone = jobsClient('chat', { status: 404, json: { error: { message: "no job 'job-1'", code: 'not_found' } } });
    const error = await gone.client.jobs.wait('job-1').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RerankApiError);
    expect(error).toMatchObject({ status: 404, code: 'not_found' });
    expect(gone.calls).toHaveLength(1);
  });

  it('too many consecutive poll failures give up with the last error', async () => {
    const { client, calls } = jobsClient('chat', { status: 500, json: { error: { message: 'Internal server error' } } });
    await expect(client.jobs.wait('job-1', { maxPollErrors: 2 })).rejects.toThrow('Internal server error');
    expect(calls).toHaveLength(3);
  });

  it('an AbortSignal stops waiting (the server has no cancel endpoint)', async () => {
    const { client } = jobsClient('chat', view('running', 0, 3));
    const controller = new AbortController();
    const pending = client.jobs.wait('job-1', {
      signal: controller.signal,
      initialDelayMs: 1000,
      onProgress: () => controller.abort(new Error('stop')),
    });
    await expect(pending).rejects.toThrow('stop');
  });

  it('a job still running after timeoutMs gives RerankTimeoutError', async () => {
    const { client } = jobsClient('chat', view('running', 0, 3));
    const error = await client.jobs.wait('job-1', { timeoutMs: 10 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RerankTimeoutError);
    expect((error as Error).message).toMatch(/job-1 still running after 10 ms/);
  });

  it('rerank follows a 202 from a dialect endpoint to the job result', async () => {
    const { client } = jobsClient('chat', { status: 202, ...view('running', 0, 3) }, view('succeeded', 3, 3, { result: chatResult }));
    expect((await client.rerank('q', DOCS)).results).toEqual([
      [2, -1],
      [1, -2],
      [0, -3],
    ]);
  });
});

describe('pollDelayMs', () => {
  it('grows exponentially up to the cap, jittered between half and all of it', () => {
    const opts = { initialDelayMs: 100, maxDelayMs: 1000 };
    expect([0, 1, 2, 3, 4, 10].map((n) => pollDelayMs(n, { ...opts, random: () => 0.999999 }))).toEqual([100, 200, 400, 800, 1000, 1000]);
    expect([0, 1, 2, 3, 4].map((n) => pollDelayMs(n, { ...opts, random: () => 0 }))).toEqual([50, 100, 200, 400, 500]);
  });
});
