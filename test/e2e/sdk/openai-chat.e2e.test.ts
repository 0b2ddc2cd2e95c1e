import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseLikeLexilux } from './lexilux-chat-reply.js';
import { DOCS, MANY_DOCS, QUERY, SDK_KEY, STILL_RUNNING, startSdkServer, type SdkServer } from './sdk-server.js';

// The OpenAI SDK against the chat dialect (baseURL `.../v1`), and seed 000/001's own chat client reading the reply.
let api: SdkServer;

beforeAll(async () => {
  api = await startSdkServer();
});

afterAll(async () => {
  await api?.stop();
});

const content = (candidates: readonly string[], extra: Record<string, unknown> = {}) =>
  JSON.stringify({ query: QUERY, candidates, ...extra });
const client = (key = SDK_KEY) => new OpenAI({ apiKey: key, baseURL: `${api.url}/v1` });

describe('openai chat.completions against the chat dialect', () => {
  it("a hosted model name and no include_docs: the reply carries every document, as seed 000's client needs", async () => {
    const reply = await client().chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: content(DOCS, { top_k: 2 }) }],
    });

    const withDocs = parseLikeLexilux(reply, DOCS, { includeDocs: true, topK: 2 });
    const expected = await api.rerank({ query: QUERY, documents: DOCS, top_n: 2 });
    expect(withDocs).toEqual(expected.map((r) => [r.index, r.relevance_score, DOCS[r.index]]));
    expect(parseLikeLexilux(reply, DOCS, { includeDocs: false })).toEqual(expected.map((r) => [r.index, r.relevance_score]));
  });

  it('include_docs false (or return_documents false) leaves the documents out', async () => {
    for (const off of [{ include_docs: false }, { return_documents: false }]) {
      const reply = await client().chat.completions.create({
        model: 'RerankService',
        messages: [{ role: 'user', content: content(DOCS, off) }],
      });
      const results = (JSON.parse(reply.choices[0]?.message.content ?? '') as { results: Record<string, unknown>[] }).results;
      expect(results).toHaveLength(3);
      for (const r of results) expect(Object.keys(r).sort()).toEqual(['index', 'score']);
    }
  });

  it('stream: true assembles the same content from chat.completion.chunk deltas', async () => {
    const messages = [{ role: 'user' as const, content: content(DOCS) }];
    const whole = await client().chat.completions.create({ model: 'gpt-4o-mini', messages });

    const stream = await client().chat.completions.create({ model: 'gpt-4o-mini', messages, stream: true });
    let assembled = '';
    const finishReasons: (string | null)[] = [];
    for await (const chunk of stream) {
      expect(chunk.object).toBe('chat.completion.chunk');
      assembled += chunk.choices[0]?.delta.content ?? '';
      finishReasons.push(chunk.choices[0]?.finish_reason ?? null);
    }

    expect(assembled).toBe(whole.choices[0]?.message.content);
    expect(finishReasons.at(-1)).toBe('stop');
    expect(parseLikeLexilux({ choices: [{ message: { content: assembled } }] }, DOCS, { includeDocs: true })).toHaveLength(3);
  });

  it('the stream is server-sent events ending with data: [DONE]', async () => {
    const res = await fetch(`${api.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${SDK_KEY}` },
      body: JSON.stringify({ messages: [{ role: 'user', content: content(DOCS) }], stream: true }),
    });
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const events = (await res.text()).split('\n\n').filter(Boolean);
    expect(events.at(-1)).toBe('data: [DONE]');
    for (const e of events.slice(0, -1)) expect(JSON.parse(e.replace(/^data: /, ''))).toMatchObject({ object: 'chat.completion.chunk' });
  });

  it('errors surface our message: 401, and a job that outlives the wait (504 with x-should-retry: false, poll URL named)', async () => {
    await expect(
      client('sk-wrong').chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: content(DOCS) }] }),
    ).rejects.toThrow(/401 invalid API key/);

    const error: unknown = await client()
      .chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: content(MANY_DOCS) }] })
      .then(
        () => undefined,
        (e: unknown) => e,
      );

    expect(error).toBeInstanceOf(OpenAI.APIError);
    const apiError = error as InstanceType<typeof OpenAI.APIError>;
    expect(apiError.status).toBe(504);
    expect(apiError.message).toMatch(STILL_RUNNING);
    expect(apiError.headers?.get('location')).toMatch(/^\/v1\/rerank\/jobs\//);
    expect(apiError.headers?.get('x-should-retry')).toBe('false');
  });
});
