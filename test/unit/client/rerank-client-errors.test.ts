import { describe, expect, it } from 'vitest';
import {
  RerankApiError,
  RerankClient,
  RerankClientError,
  RerankNetworkError,
  RerankResponseFormatError,
  RerankTimeoutError,
  type RerankModeName,
} from '../../../shared/client/index.js';
import { fakeFetch, hangingFetch, type FakeReply } from './fake-fetch.js';

const BASE: Record<RerankModeName, string> = {
  openai: 'http://h/v1',
  dashscope: 'http://h/api/v1/services/rerank/text-rerank/text-rerank',
  chat: 'http://h/v1',
};

async function failure(mode: RerankModeName, reply: FakeReply): Promise<unknown> {
  const { fetch } = fakeFetch(reply);
  return new RerankClient({ baseUrl: BASE[mode], mode, fetch }).rerank('q', ['a', 'b']).catch((e: unknown) => e);
}

describe('error envelopes of each dialect become RerankApiError with the server message', () => {
  it.each(['openai', 'chat'] as const)('%s: {"error":{message,type,param,code}} and the x-request-id header', async (mode) => {
    const error = await failure(mode, {
      status: 400,
      json: { error: { message: 'top_n must be an integer >= 0', type: 'invalid_request_error', param: 'top_n', code: 'invalid_value' } },
      headers: { 'x-request-id': 'req-1' },
    });
    expect(error).toBeInstanceOf(RerankApiError);
    expect(error).toMatchObject({
      name: 'RerankApiError',
      status: 400,
      message: 'top_n must be an integer >= 0',
      type: 'invalid_request_error',
      param: 'top_n',
      code: 'invalid_value',
      requestId: 'req-1',
    });
  });

  it('dashscope: {code, message, request_id}', async () => {
    const error = await failure('dashscope', {
      status: 401,
      json: { code: 'InvalidApiKey', message: 'invalid API key', request_id: 'ds-9' },
    });
    expect(error).toBeInstanceOf(RerankApiError);
    expect(error).toMatchObject({ status: 401, code: 'InvalidApiKey', message: 'invalid API key', requestId: 'ds-9', param: undefined });
  });

  it.each([
    ['a bare {"error": "..."} (seed 001 example server)', { status: 401, json: { error: 'Unauthorized' } }, 'Unauthorized'],
    ['a FastAPI {"detail": "..."}', { status: 422, json: { detail: 'query is required' } }, 'query is required'],
    ['a plain-text gateway page', { status: 502, text: 'Bad Gateway', headers: { 'content-type': 'text/plain' } }, 'Bad Gateway'],
    ['an empty body', { status: 503, text: '' }, 'HTTP 503'],
  ])('%s', async (_name, reply, message) => {
    const error = await failure('openai', reply as FakeReply);
    expect(error).toBeInstanceOf(RerankApiError);
    expect((error as RerankApiError).message).toContain(message);
    expect((error as RerankApiError).status).toBe(reply.status);
  });

  it('a 200 carrying an error envelope is an error, not an empty result', async () => {
    const error = await failure('dashscope', { status: 200, json: { code: 'Throttling', message: 'slow down', request_id: 'x' } });
    expect(error).toMatchObject({ name: 'RerankApiError', status: 200, code: 'Throttling', message: 'slow down' });
  });

  it('a 200 that is no rerank reply at all is a RerankResponseFormatError', async () => {
    const error = await failure('openai', { status: 200, json: { hello: 'world' } });
    expect(error).toBeInstanceOf(RerankResponseFormatError);
    expect(error).toBeInstanceOf(RerankClientError);
  });
});

describe('transport failures', () => {
  it('a server that does not answer in timeoutMs gives RerankTimeoutError', async () => {
    const client = new RerankClient({ baseUrl: 'http://h/v1', mode: 'openai', fetch: hangingFetch, timeoutMs: 20 });
    const error = await client.rerank('q', ['a']).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RerankTimeoutError);
    expect(error).toMatchObject({ timeoutMs: 20, message: expect.stringMatching(/POST http:\/\/h\/v1\/rerank timed out after 20 ms/) });
  });

  it('a refused connection gives RerankNetworkError with fetch error as cause', async () => {
    const cause = new TypeError('fetch failed');
    const client = new RerankClient({
      baseUrl: 'http://h/v1',
      fetch: () => Promise.reject(cause),
    });
    const error = await client.rerank('q', ['a']).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RerankNetworkError);
    expect((error as RerankNetworkError).cause).toBe(cause);
  });

  it("the caller's abort rejects with the signal's reason, not a client error", async () => {
    const client = new RerankClient({ baseUrl: 'http://h/v1', fetch: hangingFetch });
    const controller = new AbortController();
    const pending = client.rerank('q', ['a'], { signal: controller.signal }).catch((e: unknown) => e);
    controller.abort(new Error('user went away'));
    const error = await pending;
    expect(error).not.toBeInstanceOf(RerankClientError);
    expect((error as Error).message).toBe('user went away');
  });
});
