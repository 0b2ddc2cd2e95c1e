import { describe, expect, it } from 'vitest';
import { RerankClient, RerankClientError, type RerankModeName } from '../../../shared/client/index.js';
import { chatCompletion, fakeFetch, seedJson, seedText } from './fake-fetch.js';

const LONG_DOCS = [
  'urllib is a built-in Python library for HTTP requests',
  'requests is a popular third-party HTTP library for Python',
  'httpx is a modern async HTTP client for Python',
];
const SHORT_DOCS = ['urllib', 'requests', 'httpx'];

const client = (mode: RerankModeName, baseUrl: string, reply: Parameters<typeof fakeFetch>[0] = { json: {} }, model?: string) => {
  const fake = fakeFetch(reply);
  return {
    client: new RerankClient({ baseUrl, mode, fetch: fake.fetch, apiKey: 'sk-test', ...(model ? { model } : {}) }),
    calls: fake.calls,
  };
};

describe('endpoints follow seed 000', () => {
  it.each([
    ['openai', 'http://h:3000/v1', 'http://h:3000/v1/rerank'],
    ['openai', 'http://h:3000/v1/', 'http://h:3000/v1/rerank'],
    ['openai', 'https://api.jina.ai/v1/rerank', 'https://api.jina.ai/v1/rerank'],
    ['openai', 'http://rerank.example.com/v1', 'http://rerank.example.com/v1/rerank'],
    [
      'dashscope',
      'https://dashscope.aliyuncs.com/api/v1/services/rerank/text-rerank/text-rerank',
      'https://dashscope.aliyuncs.com/api/v1/services/rerank/text-rerank/text-rerank',
    ],
    ['chat', 'http://192.168.0.220:20551/v1', 'http://192.168.0.220:20551/v1/chat/completions'],
    ['chat', 'http://h/v1/chat/completions', 'http://h/v1/chat/completions'],
  ] as const)('%s with base %s posts to %s', (mode, baseUrl, endpoint) => {
    expect(client(mode, baseUrl).client.endpoint).toBe(endpoint);
  });

  it('jobs live under the same deployment prefix as the endpoint', () => {
    expect(client('openai', 'https://x.execute-api.aws/prod/v1').client.jobs.jobsUrl).toBe('https://x.execute-api.aws/prod/v1/rerank/jobs');
    expect(client('chat', 'http://h:3000/v1').client.jobs.jobsUrl).toBe('http://h:3000/v1/rerank/jobs');
    expect(client('dashscope', 'http://h:3000/api/v1/services/rerank/text-rerank/text-rerank').client.jobs.jobsUrl).toBe(
      'http://h:3000/v1/rerank/jobs',
    );
    expect(client('openai', 'http://h:3000').client.jobs.jobsUrl).toBe('http://h:3000/v1/rerank/jobs');
  });

  it('mode defaults to chat; a bad mode or base URL fails at construction', () => {
    expect(new RerankClient({ baseUrl: 'http://h/v1' }).mode).toBe('chat');
    expect(() => new RerankClient({ baseUrl: 'http://h/v1', mode: 'cohere' as RerankModeName })).toThrow(RerankClientError);
    expect(() => new RerankClient({ baseUrl: 'localhost:3000' })).toThrow(/absolute http\(s\) URL/);
  });
});

describe('request bodies are the seed examples', () => {
  it('openai: top-level fields, top_k -> top_n, include_docs -> return_documents, Bearer key', async () => {
    const { client: c, calls } = client('openai', 'https://api.jina.ai/v1', { json: { results: [] } }, 'jina-reranker-v3');
    await c.rerank('python http library', LONG_DOCS, { topK: 3, includeDocs: true });
    await c.rerank('python http library', SHORT_DOCS, { topK: 2, includeDocs: true });
    expect(calls.map((call) => call.body)).toEqual([seedJson('openai-request.json'), seedJson('openai-request-top-n-2.json')]);
    expect(calls[0]?.headers).toMatchObject({ authorization: 'Bearer sk-test', 'content-type': 'application/json' });
    expect(calls[0]?.method).toBe('POST');
  });

  it('dashscope: wrapped in input and parameters', async () => {
    const url = 'https://dashscope.aliyuncs.com/api/v1/services/rerank/text-rerank/text-rerank';
    const { client: c, calls } = client('dashscope', url, { json: { output: { results: [] } } }, 'qwen3-rerank');
    await c.rerank('python http library', LONG_DOCS, { topK: 3, includeDocs: true });
    await c.rerank('python http library', SHORT_DOCS, { topK: 2, includeDocs: true });
    expect(calls.map((call) => call.body)).toEqual([seedJson('dashscope-request.json'), seedJson('dashscope-request-top-n-2.json')]);
    expect(calls[0]?.url).toBe(url);
  });

  it('chat: the rerank data is a JSON string in the user message', async () => {
    const { client: c, calls } = client('chat', 'http://192.168.0.220:20551/v1', { json: chatCompletion('[]') }, 'RerankService');
    await c.rerank('python http library', LONG_DOCS, { topK: 3 });
    await c.rerank('python http library', SHORT_DOCS, { topK: 2 });
    // The seeds show Python's json.dumps spacing; the content is compared as the JSON it carries.
    const decode = (body: unknown) => {
      const b = body as { messages: { content: string }[] };
      return { ...b, messages: b.messages.map((m) => ({ ...m, content: JSON.parse(m.content) as unknown })) };
    };
    expect(calls.map((call) => decode(call.body))).toEqual([
      decode(seedJson('chat-request.json')),
      decode(seedJson('chat-request-top-k-2.json')),
    ]);
  });

  it('options every mode carries: raw scores, threshold, batch size, prompt; the model only when configured', async () => {
    const opts = { rawScores: true, threshold: -2, batchSize: 16, prompt: 'find http clients' };
    const openai = client('openai', 'http://h/v1', { json: { results: [] } });
    await openai.client.rerank('q', ['a'], opts);
    expect(openai.calls[0]?.body).toEqual({
      query: 'q',
      documents: ['a'],
      return_documents: false,
      raw_scores: true,
      rerank_threshold: -2,
      batch_size: 16,
      instruction: 'find http clients',
    });
    const dash = client('dashscope', 'http://h/api/v1/services/rerank/text-rerank/text-rerank', { json: { output: { results: [] } } });
    await dash.client.rerank('q', ['a'], opts);
    expect(dash.calls[0]?.body).toEqual({
      input: { query: 'q', documents: ['a'] },
      parameters: { return_documents: false, raw_scores: true, rerank_threshold: -2, batch_size: 16, instruct: 'find http clients' },
    });
    const chat = client('chat', 'http://h/v1', { json: chatCompletion('[]') }, 'm1');
    await chat.client.rerank('q', ['a'], { ...opts, includeDocs: true, model: 'm2' });
    const body = chat.calls[0]?.body as { model: string; stream: boolean; messages: { content: string }[] };
    expect(body.model).toBe('m2');
    expect(body.stream).toBe(false);
    expect(JSON.parse(body.messages[0]?.content ?? '')).toEqual({
      query: 'q',
      candidates: ['a'],
      include_docs: true,
      prompt: 'find http clients',
      batch_size: 16,
      raw_scores: true,
      rerank_threshold: -2,
    });
  });

  it('instruction is the prompt by its domain name; metadata is sent in openai mode and refused in the others', async () => {
    const openai = client('openai', 'http://h/v1', { json: { results: [] } });
    await openai.client.rerank('q', ['a', 'b'], { instruction: 'newest first', prompt: 'ignored', metadata: ['2024', ''] });
    expect(openai.calls[0]?.body).toMatchObject({ instruction: 'newest first', metadata: ['2024', ''] });
    const dash = client('dashscope', 'http://h/api/v1/services/rerank/text-rerank/text-rerank', { json: { output: { results: [] } } });
    await dash.client.rerank('q', ['a'], { instruction: 'newest first' });
    expect(dash.calls[0]?.body).toMatchObject({ parameters: { instruct: 'newest first' } });
    await expect(dash.client.rerank('q', ['a'], { metadata: ['x'] })).rejects.toThrow(/metadata is sent in openai mode only/);
  });

  it("the token controls are sent in vLLM's spelling in openai mode and refused in the others", async () => {
    const openai = client('openai', 'http://h/v1', { json: { results: [] } });
    await openai.client.rerank('q', ['a'], { maxTokensPerDoc: 64, maxTokensPerQuery: 8, truncationSide: 'left' });
    expect(openai.calls[0]?.body).toMatchObject({ max_tokens_per_doc: 64, max_tokens_per_query: 8, truncation_side: 'left' });
    await openai.client.rerank('q', ['a']);
    expect(openai.calls[1]?.body).not.toHaveProperty('max_tokens_per_doc');
    const chat = client('chat', 'http://h/v1', { json: { choices: [] } });
    await expect(chat.client.rerank('q', ['a'], { maxTokensPerDoc: 64 })).rejects.toThrow(/max_tokens_per_doc is sent in openai mode only/);
  });

  it('no documents: empty result without a request', async () => {
    const { client: c, calls } = client('openai', 'http://h/v1');
    expect(await c.rerank('q', [])).toEqual({ results: [], usage: {} });
    expect(calls).toHaveLength(0);
  });
});

describe('replies of every mode become one result shape', () => {
  it('openai reply (seed 000) with documents', async () => {
    const { client: c } = client('openai', 'http://h/v1', { text: seedText('openai-response.json') });
    const result = await c.rerank('python http library', LONG_DOCS, { includeDocs: true });
    expect(result.results).toEqual([
      [0, 0.95, 'requests is a popular third-party HTTP library for Python'],
      [1, 0.85, 'httpx is a modern async HTTP client for Python'],
      [2, 0.7, 'urllib is a built-in Python library for HTTP requests'],
    ]);
    expect(result.usage).toEqual({ totalTokens: 150 });
    expect(result.raw).toBeUndefined();
  });

  it('dashscope reply (seed 000); without includeDocs the documents are dropped; returnRaw keeps the body', async () => {
    const { client: c } = client('dashscope', 'http://h/api/v1/services/rerank/text-rerank/text-rerank', {
      text: seedText('dashscope-response.json'),
    });
    const result = await c.rerank('python http library', LONG_DOCS, { returnRaw: true });
    expect(result.results).toEqual([
      [0, 0.95],
      [1, 0.85],
    ]);
    expect(result.raw).toEqual(seedJson('dashscope-response.json'));
  });

  it('the seed 000 short replies of all three modes unify to the same result', async () => {
    const replies = {
      openai: client('openai', 'http://h/v1', { text: seedText('openai-response-short.json') }),
      dashscope: client('dashscope', 'http://h/api/v1/services/rerank/text-rerank/text-rerank', {
        text: seedText('dashscope-response-short.json'),
      }),
      chat: client('chat', 'http://h/v1', { text: seedText('chat-response-short.json') }),
    };
    for (const { client: c } of Object.values(replies)) {
      const result = await c.rerank('python http library', SHORT_DOCS, { topK: 2, includeDocs: true });
      expect(result.results).toEqual([
        [0, 0.95, 'requests'],
        [1, 0.85, 'httpx'],
      ]);
    }
  });

  it('openai mode: a missing document in a reply is filled from the request; negative raw scores sort descending', async () => {
    const { client: c } = client('openai', 'http://h/v1', {
      json: {
        results: [
          { index: 0, relevance_score: -3.2 },
          { index: 2, relevance_score: -2.7, document: { text: 'httpx' } },
          { index: 1, relevance_score: -2.8 },
        ],
      },
    });
    expect((await c.rerank('q', SHORT_DOCS, { includeDocs: true, rawScores: true })).results).toEqual([
      [2, -2.7, 'httpx'],
      [1, -2.8, 'requests'],
      [0, -3.2, 'urllib'],
    ]);
  });
});
