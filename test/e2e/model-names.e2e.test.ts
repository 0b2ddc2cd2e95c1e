import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HANG_CEILING_MS, waitForProgress } from '../../scripts/support/wait-for-progress.js';
import { startDevServer, type RunningServer } from '../support/start-dev-server.js';

// Two servers over the fixture model: aliases as shipped (warnings logged, so the first-use line shows), and strict names.
let aliased: RunningServer;
let strict: RunningServer;
const SERVED = 'tinybert-l2-fixture';
const DOCUMENTS = ['requests is an HTTP library for Python', 'bananas are yellow', 'httpx is an async HTTP client'];

async function call(server: RunningServer, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, unknown> };
}

beforeAll(async () => {
  [aliased, strict] = await Promise.all([
    startDevServer({ POWERTOOLS_LOG_LEVEL: 'WARN' }),
    startDevServer({ RERANK_STRICT_MODEL_NAMES: 'on' }),
  ]);
});

afterAll(async () => {
  await Promise.all([aliased?.stop(), strict?.stop()]);
});

describe('a model reached by an alias says so where every client can see it', () => {
  it(
    'names the served model in x-rerank-model on sync answers, the 202, the poll and its result; logs each alias once',
    async () => {
      const body = { model: 'rerank-v3.5', query: 'python http library', documents: DOCUMENTS };
      for (let i = 0; i < 3; i++) {
        const sync = await call(aliased, 'POST', '/v2/rerank', body);
        expect(sync.status).toBe(200);
        expect(sync.headers.get('x-rerank-model')).toBe(SERVED);
      }
      const accepted = await call(aliased, 'POST', '/v2/rerank', body, { prefer: 'respond-async' });
      expect(accepted.status).toBe(202);
      expect(accepted.headers.get('x-rerank-model')).toBe(SERVED);
      const done = await waitForProgress(
        async () => {
          const poll = await call(aliased, 'GET', accepted.body['poll_url'] as string);
          return { done: poll.body['status'] !== 'running', progress: JSON.stringify(poll.body['progress']), value: poll };
        },
        { stallMs: 60_000, what: 'the aliased job' },
      );
      expect(done.body['status']).toBe('succeeded');
      expect(done.headers.get('x-rerank-model')).toBe(SERVED);
      expect(done.body['model']).toBe(SERVED);

      expect((await call(aliased, 'POST', '/v1/rerank', { ...body, model: 'BAAI/bge-reranker-v2-m3' })).status).toBe(200);
      const lines = aliased.output().split('\n');
      expect(lines.filter((line) => line.includes("model name 'rerank-v3.5' is an alias"))).toHaveLength(1);
      expect(lines.filter((line) => line.includes("model name 'BAAI/bge-reranker-v2-m3' is an alias"))).toHaveLength(1);
      expect(lines.find((line) => line.includes("'rerank-v3.5' is an alias"))).toContain(`'${SERVED}' scores it`);
    },
    HANG_CEILING_MS,
  );

  it('lists the aliases on the served model in /v1/models, and answers an alias with alias_of', async () => {
    const list = await call(aliased, 'GET', '/v1/models');
    const model = (list.body['data'] as Record<string, unknown>[])[0];
    expect(model).toMatchObject({ id: SERVED, object: 'model' });
    expect(model?.['aliases']).toEqual(expect.arrayContaining(['rerank-v3.5', 'BAAI/bge-reranker-v2-m3']));
    const one = await call(aliased, 'GET', '/v1/models/rerank-v3.5');
    expect(one.body).toMatchObject({ id: 'rerank-v3.5', object: 'model', alias_of: SERVED });
  });
});

describe('RERANK_STRICT_MODEL_NAMES=on', () => {
  const why = new RegExp(`^model 'rerank-v3.5' is not served here \\(it is a hosted model name.*\\); served models: ${SERVED};`);

  it("refuses a hosted name that is not served in each dialect's own error shape, naming the served models", async () => {
    const cohere = await call(strict, 'POST', '/v2/rerank', { model: 'rerank-v3.5', query: 'q', documents: DOCUMENTS });
    expect(cohere.status).toBe(400);
    expect(cohere.body['message']).toMatch(why);

    const dashscope = await call(strict, 'POST', '/api/v1/services/rerank/text-rerank/text-rerank', {
      model: 'gte-rerank-v2',
      input: { query: 'q', documents: DOCUMENTS },
    });
    expect(dashscope.status).toBe(400);
    expect(dashscope.body).toMatchObject({
      code: 'InvalidParameter',
      message: expect.stringMatching(/^model 'gte-rerank-v2' is not served here \(it is a hosted/),
    });

    const openai = await call(strict, 'POST', '/v1/rerank', { model: 'rerank-v3.5', query: 'q', documents: DOCUMENTS });
    expect(openai.status).toBe(400);
    expect(openai.body['error']).toMatchObject({ type: 'invalid_request_error', param: 'model', message: expect.stringMatching(why) });

    const bedrock = await call(strict, 'POST', '/model/cohere.rerank-v3-5:0/invoke', { query: 'q', documents: DOCUMENTS });
    expect(bedrock.status).toBe(400);
    expect(bedrock.headers.get('x-amzn-errortype')).toBe('ValidationException');
    expect(bedrock.body['message']).toMatch(/^model 'cohere.rerank-v3-5:0' is not served here \(it is a hosted model name/);
  });

  it('still serves its own models by id and with no model named; /v1/models lists no aliases', async () => {
    const named = await call(strict, 'POST', '/v2/rerank', { model: SERVED, query: 'q', documents: DOCUMENTS });
    expect(named.status).toBe(200);
    expect((await call(strict, 'POST', '/v1/rerank', { query: 'q', documents: DOCUMENTS })).status).toBe(200);
    const list = await call(strict, 'GET', '/v1/models');
    expect((list.body['data'] as Record<string, unknown>[])[0]).not.toHaveProperty('aliases');
    expect((await call(strict, 'GET', '/v1/models/rerank-v3.5')).status).toBe(404);
  });
});
