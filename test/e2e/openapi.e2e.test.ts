import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HANG_CEILING_MS, waitForProgress } from '../../scripts/support/wait-for-progress.js';
import type { DialectName } from '../../shared/dialects/dialect.js';
import { DIALECTS } from '../../shared/dialects/dialects.js';
import { API_ROUTES, DASHSCOPE_RERANK_PATH } from '../../shared/http/api-routes.js';
import { startDevServer, type RunningServer } from '../support/start-dev-server.js';

type Json = Record<string, unknown>;

const KEY = 'sk-openapi-0123456789abcdef';
let server: RunningServer;

const post = async (
  path: string,
  body: unknown,
  headers: Readonly<Record<string, string>> = {},
): Promise<{ status: number; body: Json }> => {
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
    for (const route of API_ROUTES)
      expect(doc.paths[route.path]?.[route.method.toLowerCase()], `${route.method} ${route.path}`).toBeDefined();
    expect(Object.keys(doc.components.schemas)).toEqual(
      expect.arrayContaining(['OpenAiRerankRequest', 'DashScopeRerankRequest', 'ChatRerankRequest', 'RerankJob']),
    );
  });

  it('gives every JSON request body a ready-to-send example that the route answers 200 (202 for a job)', async () => {
    const doc = (await (await fetch(`${server.url}/openapi.json`)).json()) as { paths: Record<string, Record<string, Json>> };
    let sent = 0;
    for (const route of API_ROUTES) {
      const content = (
        doc.paths[route.path]?.[route.method.toLowerCase()]?.['requestBody'] as
          | { content?: Record<string, { examples?: Record<string, { value: unknown }> }> }
          | undefined
      )?.content;
      const json = content?.['application/json'];
      if (route.action.kind !== 'rerank' && route.action.kind !== 'submit-job') continue;
      expect(Object.keys(json?.examples ?? {}), `${route.method} ${route.path}`).not.toHaveLength(0);
      // A path that names a value (Bedrock's `/model/{model}/invoke`) is sent with its parameter's documented example.
      const parameters = (doc.paths[route.path]?.[route.method.toLowerCase()]?.['parameters'] ?? []) as {
        name: string;
        in: string;
        schema?: { examples?: unknown[] };
      }[];
      const path = parameters
        .filter((p) => p.in === 'path')
        .reduce((at, p) => at.replace(`{${p.name}}`, encodeURIComponent(String(p.schema?.examples?.[0]))), route.path);
      for (const [name, example] of Object.entries(json?.examples ?? {})) {
        // A dialect told apart by its headers (Pinecone's) gets them, as its clients send them.
        const { status, body } = await post(path, example.value, DIALECTS[name as DialectName]?.exampleHeaders);
        expect(status, `${route.path} ${name}: ${JSON.stringify(body)}`).toBe(route.action.kind === 'submit-job' ? 202 : 200);
        sent++;
      }
    }
    expect(sent).toBeGreaterThanOrEqual(API_ROUTES.filter((r) => r.action.kind === 'rerank' || r.action.kind === 'submit-job').length);
  });

  it("the Files, Uploads and Batches examples, sent as /docs' Try it out sends them (ids filled in), are answered 200", async () => {
    type Body = { content: Record<string, { examples?: Record<string, { value: Json }>; example?: Json }> };
    const doc = (await (await fetch(`${server.url}/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { requestBody?: Body }>>;
    };
    const jsonExample = (path: string): Json =>
      Object.values(doc.paths[path]!['post']!.requestBody!.content['application/json']!.examples!)[0]!.value;
    const formExample = (path: string): Json => doc.paths[path]!['post']!.requestBody!.content['multipart/form-data']!.example!;
    const auth = { authorization: `Bearer ${KEY}` };

    // POST /v1/files: the form's example fields and a two-line batch input.
    const form = new FormData();
    for (const [name, value] of Object.entries(formExample('/v1/files'))) form.set(name, String(value));
    const lines = ['q1', 'q2'].map((id) =>
      JSON.stringify({
        custom_id: id,
        method: 'POST',
        url: '/v1/rerank',
        body: { query: 'python http', documents: ['requests is an HTTP library', 'a cake recipe'] },
      }),
    );
    form.set('file', new Blob([`${lines.join('\n')}\n`]), 'requests.jsonl');
    const file = await fetch(`${server.url}/v1/files`, { method: 'POST', headers: auth, body: form });
    expect(file.status).toBe(200);
    const fileId = ((await file.json()) as { id: string }).id;

    // POST /v1/batches: the example, with the file just uploaded.
    const batch = await post('/v1/batches', { ...jsonExample('/v1/batches'), input_file_id: fileId });
    expect(batch.status, JSON.stringify(batch.body)).toBe(200);
    expect(batch.body).toMatchObject({ object: 'batch', endpoint: '/v1/rerank', input_file_id: fileId });

    // POST /v1/uploads as shown; then a small upload through parts and complete, with the example's shape.
    const upload = await post('/v1/uploads', jsonExample('/v1/uploads'));
    expect(upload.status, JSON.stringify(upload.body)).toBe(200);
    const small = await post('/v1/uploads', { ...jsonExample('/v1/uploads'), bytes: 5 });
    const part = new FormData();
    for (const [name, value] of Object.entries(formExample('/v1/uploads/{id}/parts'))) part.set(name, String(value));
    part.set('data', new Blob(['12345']), 'part');
    const added = await fetch(`${server.url}/v1/uploads/${String(small.body['id'])}/parts`, { method: 'POST', headers: auth, body: part });
    expect(added.status).toBe(200);
    const partId = ((await added.json()) as { id: string }).id;
    const complete = await post(`/v1/uploads/${String(small.body['id'])}/complete`, {
      ...jsonExample('/v1/uploads/{id}/complete'),
      part_ids: [partId],
    });
    expect(complete.status, JSON.stringify(complete.body)).toBe(200);
    expect(complete.body).toMatchObject({ status: 'completed', file: { bytes: 5 } });
  });

  it(
    'declares x-rerank-model, x-rerank-truncated and x-rerank-unused-controls on every rerank and job 200; real answers match their patterns',
    async () => {
      type Headers = Record<string, { description: string; schema: { pattern: string } }>;
      const doc = (await (await fetch(`${server.url}/openapi.json`)).json()) as {
        paths: Record<string, Record<string, { responses: Record<string, { headers?: Headers }> }>>;
      };
      const declared = (method: string, path: string, status: string): Headers =>
        doc.paths[path]?.[method.toLowerCase()]?.responses[status]?.headers ?? {};
      const names = ['x-rerank-model', 'x-rerank-truncated', 'x-rerank-unused-controls'];
      const answering = API_ROUTES.filter((r) => ['rerank', 'get-job', 'cancel-job'].includes(r.action.kind));
      expect(answering.length).toBeGreaterThan(10);
      for (const route of answering) {
        const headers = declared(route.method, route.path, '200');
        expect(Object.keys(headers), `${route.method} ${route.path}`).toEqual(expect.arrayContaining(names));
        for (const name of names) expect(headers[name]?.description).toBeTruthy();
      }
      // An alias, a 3-token cut and a control no model uses: each header has something to say, synchronously and from a job.
      const body = { model: 'rerank-v3.5', query: 'python http library', documents: ['requests is an HTTP library', 'ok'] };
      const send = (prefer?: string) =>
        fetch(`${server.url}/v2/rerank`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${KEY}`, ...(prefer ? { prefer } : {}) },
          body: JSON.stringify({ ...body, max_tokens_per_doc: 3, priority: 1 }),
        });
      const matches = (res: Response, headers: Headers, sent: readonly string[]) => {
        for (const name of sent) expect(res.headers.get(name), name).toMatch(new RegExp(headers[name]?.schema.pattern ?? '^$', 'u'));
      };
      const sync = await send();
      expect(sync.status).toBe(200);
      matches(sync, declared('POST', '/v2/rerank', '200'), names);
      expect(sync.headers.get('x-rerank-truncated')).toBe('0=3');
      const accepted = await send('respond-async');
      expect(accepted.status).toBe(202);
      matches(accepted, declared('POST', '/v2/rerank', '202'), ['x-rerank-model']);
      const pollUrl = ((await accepted.json()) as Json)['poll_url'] as string;
      const poll = await waitForProgress(
        async () => {
          const res = await fetch(`${server.url}${pollUrl}`, { headers: { authorization: `Bearer ${KEY}` } });
          const view = (await res.json()) as Json;
          return { done: view['status'] !== 'running', progress: JSON.stringify(view['progress']), value: { res, view } };
        },
        { stallMs: 60_000, what: 'the job' },
      );
      expect(poll.view['status']).toBe('succeeded');
      matches(poll.res, declared('GET', '/v1/rerank/jobs/{id}', '200'), names);
    },
    HANG_CEILING_MS,
  );

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
    expect(body).toMatchObject({
      code: 'InvalidParameter',
      message: 'parameters.top_n must be an integer, got a string',
      request_id: expect.any(String),
    });
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
    const { status, body } = await post('/v1/rerank', {
      query: 'python http',
      documents: ['urllib', { text: 'httpx' }],
      top_n: null,
      return_documents: null,
    });
    expect(status).toBe(200);
    expect(body['results']).toHaveLength(2);
  });
});
