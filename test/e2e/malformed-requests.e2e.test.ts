import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevServer, type RunningServer } from '../support/start-dev-server.js';

let server: RunningServer;

interface Case {
  readonly name: string;
  readonly method?: string;
  readonly path?: string;
  readonly body: unknown;
  readonly status: number;
}

const OVERSIZE = 'x'.repeat(7 * 1024 * 1024); // above the 6 MiB body limit, below API Gateway's 10 MB
const raw = (text: string) => ({ raw: text });

async function send(path: string, c: Case): Promise<{ status: number; body: Record<string, unknown> }> {
  const body =
    c.body === undefined
      ? undefined
      : typeof c.body === 'object' && c.body !== null && 'raw' in c.body
        ? (c.body as { raw: string }).raw
        : JSON.stringify(c.body);
  const res = await fetch(`${server.url}${c.path ?? path}`, {
    method: c.method ?? 'POST',
    headers: { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body }),
  });
  const text = await res.text();
  return { status: res.status, body: JSON.parse(text) as Record<string, unknown> };
}

function expectOpenAiEnvelope(body: Record<string, unknown>): void {
  const error = body['error'] as Record<string, unknown>;
  expect(typeof error.message).toBe('string');
  expect(typeof error.type).toBe('string');
  expect(typeof error.code).toBe('string');
  expect('param' in error).toBe(true);
}

function expectDashScopeEnvelope(body: Record<string, unknown>): void {
  expect(typeof body['code']).toBe('string');
  expect(typeof body['message']).toBe('string');
  expect(typeof body['request_id']).toBe('string');
}

const commonCases = (wrap: (fields: Record<string, unknown>) => unknown, docsKey: string): Case[] => [
  { name: 'bad JSON', body: raw('{"query": "q", '), status: 400 },
  { name: 'empty body', body: raw(''), status: 400 },
  { name: 'JSON array body', body: [], status: 400 },
  { name: 'missing query', body: wrap({ [docsKey]: ['a'] }), status: 400 },
  { name: 'query is a number', body: wrap({ query: 42, [docsKey]: ['a'] }), status: 400 },
  { name: 'query is empty', body: wrap({ query: '   ', [docsKey]: ['a'] }), status: 400 },
  { name: 'documents missing', body: wrap({ query: 'q' }), status: 400 },
  { name: 'documents empty', body: wrap({ query: 'q', [docsKey]: [] }), status: 400 },
  { name: 'documents a string', body: wrap({ query: 'q', [docsKey]: 'a' }), status: 400 },
  { name: 'non-string documents', body: wrap({ query: 'q', [docsKey]: [1, 2] }), status: 400 },
  { name: 'object document without text', body: wrap({ query: 'q', [docsKey]: [{ title: 't' }] }), status: 400 },
  { name: 'unknown model', body: { ...(wrap({ query: 'q', [docsKey]: ['a'] }) as object), model: 'no-such-model' }, status: 400 },
  { name: 'oversize body', body: raw(JSON.stringify({ query: 'q', pad: OVERSIZE })), status: 413 },
  { name: 'wrong method', method: 'GET', body: undefined, status: 405 },
];

const openAiCases: Case[] = [
  ...commonCases((f) => f, 'documents'),
  { name: 'top_n negative', body: { query: 'q', documents: ['a'], top_n: -1 }, status: 400 },
  { name: 'top_n fractional', body: { query: 'q', documents: ['a'], top_n: 1.5 }, status: 400 },
  { name: 'top_n a string', body: { query: 'q', documents: ['a'], top_n: '2' }, status: 400 },
  { name: 'return_documents a string', body: { query: 'q', documents: ['a'], return_documents: 'yes' }, status: 400 },
  { name: 'unknown route', path: '/v1/rerankers', body: { query: 'q', documents: ['a'] }, status: 404 },
];

const dashScopeCases: Case[] = [
  ...commonCases((f) => {
    const { query, documents, ...rest } = f;
    return { input: { ...(query === undefined ? {} : { query }), ...(documents === undefined ? {} : { documents }) }, ...rest };
  }, 'documents'),
  { name: 'input missing', body: { model: 'x' }, status: 400 },
  { name: 'input a string', body: { input: 'q' }, status: 400 },
  { name: 'parameters an array', body: { input: { query: 'q', documents: ['a'] }, parameters: [] }, status: 400 },
  { name: 'top_n negative', body: { input: { query: 'q', documents: ['a'] }, parameters: { top_n: -3 } }, status: 400 },
  { name: 'unknown route under the prefix', path: '/api/v1/services/rerank/nope', body: {}, status: 404 },
];

const chat = (content: unknown, extra: Record<string, unknown> = {}) => ({
  model: 'tinybert-l2-fixture',
  messages: [{ role: 'user', content: typeof content === 'string' ? content : JSON.stringify(content) }],
  ...extra,
});

const chatCases: Case[] = [
  ...commonCases((f) => {
    const { model, ...data } = f;
    return { ...chat(data), ...(model === undefined ? {} : { model }) };
  }, 'candidates'),
  { name: 'content not JSON', body: chat('please rerank these for me'), status: 400 },
  { name: 'content a JSON array', body: chat([1, 2]), status: 400 },
  { name: 'content without candidates', body: chat({ query: 'q' }), status: 400 },
  { name: 'messages missing', body: { model: 'm' }, status: 400 },
  { name: 'messages empty', body: { messages: [] }, status: 400 },
  { name: 'no user message', body: { messages: [{ role: 'system', content: '{}' }] }, status: 400 },
  { name: 'content a number', body: { messages: [{ role: 'user', content: 7 }] }, status: 400 },
  { name: 'stream not a boolean', body: chat({ query: 'q', candidates: ['a'] }, { stream: 'yes' }), status: 400 },
  { name: 'top_k negative', body: chat({ query: 'q', candidates: ['a'], top_k: -1 }), status: 400 },
];

beforeAll(async () => {
  server = await startDevServer();
});

afterAll(async () => {
  await server?.stop();
});

describe.each([
  { dialect: 'OpenAI-compatible', path: '/v1/rerank', cases: openAiCases, envelope: expectOpenAiEnvelope },
  {
    dialect: 'DashScope',
    path: '/api/v1/services/rerank/text-rerank/text-rerank',
    cases: dashScopeCases,
    envelope: expectDashScopeEnvelope,
  },
  { dialect: 'chat-based', path: '/v1/chat/completions', cases: chatCases, envelope: expectOpenAiEnvelope },
])('$dialect: malformed requests get a 4xx in the dialect envelope', ({ path, cases, envelope }) => {
  it.each(cases)('$name -> $status', async (c) => {
    const { status, body } = await send(path, c);
    expect(status).toBe(c.status);
    envelope(body);
  });
});

describe('errors that say where', () => {
  it('invalid JSON names the line and column of the first bad character, in every dialect', async () => {
    const text = '{\n  "query": "q",\n  "documents": ["a",]\n}';
    const openai = await send('/v1/rerank', { name: 'trailing comma', body: raw(text), status: 400 });
    expect((openai.body['error'] as { message: string }).message).toBe(
      'request body is not valid JSON: unexpected character "]" at line 3, column 21',
    );
    const dashscope = await send('/api/v1/services/rerank/text-rerank/text-rerank', {
      name: 'cut',
      body: raw('{"input": {"query": "q"'),
      status: 400,
    });
    expect(dashscope.body['message']).toBe('request body is not valid JSON: it ends early, at line 1, column 24');
    const chatContent = await send('/v1/chat/completions', {
      name: 'content',
      body: chat('{"query": "q", "candidates": [a]}'),
      status: 400,
    });
    expect((chatContent.body['error'] as { message: string }).message).toMatch(
      /is not valid JSON: unexpected character "a" at line 1, column 31$/,
    );
  });
});

describe('errors that say what to do', () => {
  it('an unknown model lists the served models (not every alias) and how to serve another', async () => {
    const { body } = await send('/v1/rerank', {
      name: 'unknown model',
      body: { model: 'no-such-model', query: 'q', documents: ['a'] },
      status: 400,
    });
    const message = (body['error'] as { message: string }).message;
    const served = ((await (await fetch(`${server.url}/v1/models`)).json()) as { data: { id: string }[] }).data.map((m) => m.id);
    expect(message).toMatch(
      new RegExp(
        `^model 'no-such-model' is not served here; served models: ${served.join(', ')} \\(plus \\d+ aliases of them\\); to serve another, add it to RERANK_MODELS \\(docs/models\\.md\\)$`,
      ),
    );
    expect(message).not.toContain('rerank-v3.5');
  });
});

describe('the service stays up', () => {
  it('still answers a valid request after every malformed one', async () => {
    const { status } = await send('/v1/rerank', { name: 'valid', body: { query: 'q', documents: ['a', 'b'] }, status: 200 });
    expect(status).toBe(200);
  });
});
