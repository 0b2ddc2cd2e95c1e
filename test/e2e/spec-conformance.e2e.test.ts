import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OfficialSpec } from '../support/official-specs.js';
import { startDevServer, type RunningServer } from '../support/start-dev-server.js';

// Replies of the routes that imitate a vendor API, validated against that vendor's own OpenAPI document
// (test/fixtures/specs): Cohere (v2, and v1 for the OpenAI-compatible /v1/rerank that follows it), OpenAI (chat
// completions, streamed chunks, models), Llama Stack. TEI and Voyage have their own checks (tei-dialect, sdk/voyageai).
let server: RunningServer;
let cohere: OfficialSpec;
let openai: OfficialSpec;
let llamaStack: OfficialSpec;

beforeAll(async () => {
  cohere = new OfficialSpec('cohere-rerank.json');
  openai = new OfficialSpec('openai-subset.json');
  llamaStack = new OfficialSpec('llama-stack-rerank.json');
  server = await startDevServer();
});

afterAll(async () => {
  await server?.stop();
});

const QUERY = 'python http library';
const DOCUMENTS = ['requests is a popular HTTP library for Python', 'bananas are yellow', 'httpx is an async HTTP client'];

async function call(method: string, path: string, body?: unknown): Promise<{ status: number; body: unknown; text: string }> {
  const res = await fetch(`${server.url}${path}`, {
    method,
    ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text) as unknown;
  } catch {
    parsed = undefined;
  }
  return { status: res.status, body: parsed, text };
}

describe('the checks themselves', () => {
  it('refuse bodies that break the official schemas (so a pass means something)', () => {
    expect(cohere.checkResponse('post', '/v2/rerank', 200, { results: [{ index: 'first' }] })).toMatch(/body/);
    expect(cohere.checkResponse('post', '/v2/rerank', 400, { message: 42 })).toMatch(/body/);
    expect(openai.checkSchema('CreateChatCompletionResponse', { id: 'x', choices: [] })).toMatch(/value/);
    expect(llamaStack.checkResponse('post', '/v1alpha/inference/rerank', 200, { data: [{ index: 0 }] })).toMatch(/body/);
  });
});

describe("Cohere's official document", () => {
  it('POST /v2/rerank: the reply and the errors', async () => {
    for (const body of [
      { model: 'rerank-v3.5', query: QUERY, documents: DOCUMENTS, top_n: 2 },
      { query: QUERY, documents: DOCUMENTS, return_documents: true },
    ]) {
      const ok = await call('POST', '/v2/rerank', body);
      expect(ok.status).toBe(200);
      expect(cohere.checkResponse('post', '/v2/rerank', ok.status, ok.body)).toBeUndefined();
    }
    for (const bad of [
      { query: QUERY, documents: [] },
      { query: QUERY, documents: DOCUMENTS, model: 'no-such-model' },
      { documents: DOCUMENTS },
    ]) {
      const refused = await call('POST', '/v2/rerank', bad);
      expect(refused.status).toBe(400);
      expect(cohere.checkResponse('post', '/v2/rerank', refused.status, refused.body)).toBeUndefined();
    }
  });

  it('POST /v1/rerank (Cohere v1 / Jina shape): the reply, with and without documents', async () => {
    for (const body of [
      { query: QUERY, documents: DOCUMENTS, top_n: 2 },
      { query: QUERY, documents: DOCUMENTS, return_documents: true },
    ]) {
      const ok = await call('POST', '/v1/rerank', body);
      expect(ok.status).toBe(200);
      expect(cohere.checkResponse('post', '/v1/rerank', ok.status, ok.body)).toBeUndefined();
    }
    const refused = await call('POST', '/v1/rerank', { query: QUERY, documents: [] });
    expect(cohere.checkResponse('post', '/v1/rerank', refused.status, refused.body)).toBeUndefined();
  });
});

describe("OpenAI's official document", () => {
  const chat = (extra: Record<string, unknown> = {}) => ({
    model: 'RerankService',
    messages: [{ role: 'user', content: JSON.stringify({ query: QUERY, candidates: DOCUMENTS, top_k: 2 }) }],
    ...extra,
  });

  it('POST /chat/completions: the completion, every streamed chunk (with include_usage) and an error', async () => {
    const ok = await call('POST', '/v1/chat/completions', chat());
    expect(ok.status).toBe(200);
    expect(openai.checkSchema('CreateChatCompletionResponse', ok.body)).toBeUndefined();

    const streamed = await call('POST', '/v1/chat/completions', chat({ stream: true, stream_options: { include_usage: true } }));
    const chunks = streamed.text
      .split('\n')
      .filter((line) => line.startsWith('data: ') && line !== 'data: [DONE]')
      .map((line) => JSON.parse(line.slice(6)) as unknown);
    expect(chunks.length).toBeGreaterThanOrEqual(2);
    for (const chunk of chunks) expect(openai.checkSchema('CreateChatCompletionStreamResponse', chunk)).toBeUndefined();

    const refused = await call('POST', '/v1/chat/completions', { messages: [] });
    expect(refused.status).toBe(400);
    expect(openai.checkSchema('ErrorResponse', refused.body)).toBeUndefined();
  });

  it('GET /models and /models/{model}', async () => {
    const list = await call('GET', '/v1/models');
    expect(openai.checkResponse('get', '/models', list.status, list.body)).toBeUndefined();
    const one = await call('GET', '/v1/models/tinybert-l2-fixture');
    expect(openai.checkResponse('get', '/models/{model}', one.status, one.body)).toBeUndefined();
  });
});

describe("Llama Stack's official document", () => {
  it('POST /v1alpha/inference/rerank: the reply', async () => {
    const ok = await call('POST', '/v1alpha/inference/rerank', {
      model: 'tinybert-l2-fixture',
      query: QUERY,
      items: DOCUMENTS,
      max_num_results: 2,
    });
    expect(ok.status).toBe(200);
    expect(llamaStack.checkResponse('post', '/v1alpha/inference/rerank', ok.status, ok.body)).toBeUndefined();
  });
});
