import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevServer, type RunningServer } from '../support/start-dev-server.js';

const KEY = 'sk-test-0123456789abcdef';
let server: RunningServer;

const call = async (path: string, body: unknown, authorization?: string) => {
  const res = await fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(authorization ? { authorization } : {}) },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};

beforeAll(async () => {
  server = await startDevServer({ RERANK_API_KEYS: `${KEY},sk-other-key` });
});

afterAll(async () => {
  await server?.stop();
});

describe('Bearer API keys, when configured', () => {
  const openai = { query: 'q', documents: ['a', 'b'] };
  const dashscope = { input: { query: 'q', documents: ['a', 'b'] } };

  it('accepts a configured key', async () => {
    expect((await call('/v1/rerank', openai, `Bearer ${KEY}`)).status).toBe(200);
    expect((await call('/api/v1/services/rerank/text-rerank/text-rerank', dashscope, `Bearer ${KEY}`)).status).toBe(200);
  });

  it('rejects a missing key with 401 in the OpenAI envelope', async () => {
    const { status, body } = await call('/v1/rerank', openai);
    expect(status).toBe(401);
    expect(body).toMatchObject({ error: { type: 'invalid_request_error', code: 'invalid_api_key' } });
  });

  it('rejects a wrong key with 401 in the DashScope envelope', async () => {
    const { status, body } = await call('/api/v1/services/rerank/text-rerank/text-rerank', dashscope, 'Bearer sk-wrong');
    expect(status).toBe(401);
    expect(body).toMatchObject({ code: 'InvalidApiKey' });
  });

  it('rejects a non-Bearer scheme on the chat endpoint', async () => {
    const { status, body } = await call('/v1/chat/completions', { messages: [{ role: 'user', content: '{}' }] }, `Basic ${KEY}`);
    expect(status).toBe(401);
    expect((body['error'] as { code: string }).code).toBe('invalid_api_key');
  });

  it('keeps /health public', async () => {
    const res = await fetch(`${server.url}/health`);
    expect(res.status).toBe(200);
  });
});
