import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DialectName } from '../../shared/dialects/dialect.js';
import { DIALECTS } from '../../shared/dialects/dialects.js';
import { API_ROUTES, DASHSCOPE_RERANK_PATH } from '../../shared/http/api-routes.js';
import { startDevServer, type RunningServer } from '../support/start-dev-server.js';

type Json = Record<string, unknown>;

const KEY = 'sk-openapi-0123456789abcdef';
let server: RunningServer;

const post = async (path: string, body: unknown, headers: Readonly<Record<string, string>> = {}): Promise<{ status: number; body: Json }> => {
  const res = await fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${KEY}`, ...headers },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Json };
};

beforeAll(async () => {
  server = await startDevServer({ RERANK_API_KEYS: KEY });
});

afterAll(async () => {
  await server?.stop();
});

describe('GET /openapi.json', () => {
  it('serves the OpenAPI 3.1 document of every route, without an API key', async () => {
    const res = await fetch(`${server.url}/openapi.json`);

    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    const doc = (await res.json()) as { openapi: string; paths: Record<string, Json>; components: { schemas: Json } };
    expect(doc.openapi).toBe('3.1.0');
    for (const route of API_ROUTES) expect(doc.paths[route.path]?.[route.method.toLowerCase()], `${route.method} ${route.path}`).toBeDefined();
    expect(Object.keys(doc.components.schemas)).toEqual(expect.arrayContaining(['OpenAiRerankRequest', 'DashScopeRerankRequest', 'ChatRerankRequest', 'RerankJob']));
  });

  it('gives every JSON request body a ready-to-send example that the route answers 200 (202 for a job)', async () => {
    const doc = (await (await fetch(`${server.url}/openapi.json`)).json()) as { paths: Record<string, Record<string, Json>> };
    let sent = 0;
    for (const route of API_ROUTES) {
      const content = (doc.paths[route.path]?.[route.method.toLowerCase()]?.['requestBody'] as { content?: Record<string, { examples?: Record<string, { value: unknown }> }> } | undefined)?.content;
      const json = content?.['application/json'];
      if (route.action.kind !== 'rerank' && route.action.kind !== 'submit-job') continue;
      expect(Object.keys(json?.examples ?? {}), `${route.method} ${route.path}`).not.toHaveLength(0);
      // A path that names a value (Bedrock's `/model/{model}/invoke`) is sent with its parameter's documented example.
      const parameters = (doc.paths[route.path]?.[route.method.toLowerCase()]?.['parameters'] ?? []) as { name: string; in: string; schema?: { examples?: unknown[] } }[];
      const path = parameters.filter((p) => p.in === 'path').reduce((at, p) => at.replace(`{${p.name}}`, encodeURIComponent(String(p.schema?.examples?.[0]))), route.path);
      for (const [name, example] of Object.entries(json?.examples ?? {})) {
        // A dialect told apart by its headers (Pinecone's) gets them, as its clients send them.
        const { status, body } = await post(path, example.value, DIALECTS[name as DialectName]?.exampleHeaders);
        expect(status, `${route.path} ${name}: ${JSON.stringify(body)}`).toBe(route.action.kind === 'submit-job' ? 202 : 200);
        sent++;
      }
    }
    expect(sent).toBeGreaterThanOrEqual(API_ROUTES.filter((r) => r.action.kind === 'rerank' || r.action.kind === 'submit-job').length);
  });

  it('is answered 405 in the OpenAI envelope for other methods', async () => {
    const res = await fetch(`${server.url}/openapi.json`, { method: 'POST', headers: { authorization: `Bearer ${KEY}` } });
    expect(res.status).toBe(405);
    expect(((await res.json()) as { error: Json }).error).toMatchObject({ code: 'method_not_allowed' });
  });
});

describe('a body violating the published schema is a 400 in its route envelope', () => {
  it('OpenAI-compatible: names the element by its path', async () => {
    const { status, body } = await post('/v1/rerank', { query: 'q', documents: ['a', 42] });

    expect(status).toBe(400);
    expect(body).toEqual({
      message: 'documents[1] must be a string or an object with a string "text" field, got a number',
      error: {
        message: 'documents[1] must be a string or an object with a string "text" field, got a number',
        type: 'invalid_request_error',
        param: 'documents[1]',
        code: 'invalid_value',
      },
    });
  });

  it('DashScope: a nested field, in the DashScope envelope', async () => {
    const { status, body } = await post(DASHSCOPE_RERANK_PATH, { input: { query: 'q', documents: ['a'] }, parameters: { top_n: '2' } });

    expect(status).toBe(400);
    expect(body).toMatchObject({ code: 'InvalidParameter', message: 'parameters.top_n must be an integer, got a string', request_id: expect.any(String) });
  });

  it('chat: the envelope is checked by the schema, the content JSON by the reader; both answer 400', async () => {
    const noUser = await post('/v1/chat/completions', { messages: [{ role: 'system', content: '{}' }] });
    expect(noUser.status).toBe(400);
    expect(noUser.body['error']).toMatchObject({ param: 'messages', type: 'invalid_request_error' });

    const badContent = await post('/v1/chat/completions', { messages: [{ role: 'user', content: 'not json' }] });
    expect(badContent.status).toBe(400);
    expect(badContent.body['error']).toMatchObject({ param: 'messages[0].content' });
  });

  it('Cohere v2 and Llama Stack: their own envelopes', async () => {
    const cohere = await post('/v2/rerank', { query: 'q', documents: [{ text: 'a' }] });
    expect(cohere.status).toBe(400);
    expect(cohere.body['message']).toMatch(/strings only/);
    expect((cohere.body['error'] as Json)['param']).toBe('documents[0]');

    const llama = await post('/v1alpha/inference/rerank', { query: 'q', items: ['a'], max_num_results: -1 });
    expect(llama.status).toBe(400);
    expect(llama.body['error']).toMatchObject({ detail: 'max_num_results must be an integer >= 0', param: 'max_num_results' });
  });

  it('a valid body still ranks (null optional fields are absent)', async () => {
    const { status, body } = await post('/v1/rerank', { query: 'python http', documents: ['urllib', { text: 'httpx' }], top_n: null, return_documents: null });
    expect(status).toBe(200);
    expect(body['results']).toHaveLength(2);
  });
});
