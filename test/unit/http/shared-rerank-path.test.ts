import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Scorer } from '../../../shared/core/scorer.js';
import { DIALECTS } from '../../../shared/dialects/dialects.js';
import { logger } from '../../../shared/observability/logger.js';
import { apiGatewayEvent } from '../../support/event-factory.js';
import { sigV4Authorization } from '../../support/sigv4-authorization.js';
import { testRuntime } from '../../support/test-runtime.js';

// A fake Scorer port: longer documents score higher, so every dialect's answer has a known order.
const lengthScorer: Scorer = {
  id: 'length',
  scoreKind: 'similarity',
  score: async (_q, docs) => ({ scores: docs.map((d) => d.length), tokens: docs.length }),
};

const post = (app: ReturnType<typeof testRuntime>['app'], json: unknown, headers: Record<string, string> = {}) =>
  app.handle(apiGatewayEvent({ method: 'POST', path: '/rerank', json, headers }));

afterEach(() => {
  vi.restoreAllMocks();
  logger.setLogLevel('INFO');
});

describe('/rerank: one path, each body answered in its own dialect', () => {
  it('answers the OpenAI (Jina) body, the TEI body and the Bedrock body each in its own shape, with one ranking', async () => {
    const { app } = testRuntime({ scorers: [lengthScorer] });
    const replies = await Promise.all(['openai', 'tei', 'bedrock'].map((name) => post(app, DIALECTS[name as 'openai'].example)));
    const [openai, tei, bedrock] = replies.map((reply) => JSON.parse(reply.body as string) as unknown);
    expect(replies.map((reply) => reply.statusCode)).toEqual([200, 200, 200]);
    // The examples rank the same three texts: the longest first.
    expect((openai as { results: { index: number }[] }).results.map((r) => r.index)).toEqual([1, 0]);
    expect((tei as { index: number }[]).map((r) => r.index)).toEqual([1, 0, 2]);
    expect((bedrock as { results: { index: number; relevanceScore: number; document: unknown }[] }).results).toEqual([
      {
        index: 1,
        relevanceScore: expect.any(Number),
        document: { type: 'TEXT', textDocument: { text: 'requests is a popular third-party HTTP library for Python' } },
      },
      {
        index: 0,
        relevanceScore: expect.any(Number),
        document: { type: 'TEXT', textDocument: { text: 'urllib is a built-in Python library for HTTP requests' } },
      },
    ]);
  });

  it('names the model that served the answer in x-rerank-model, also when the request named another', async () => {
    const { app } = testRuntime({ scorers: [lengthScorer] });
    const reply = await post(app, { ...DIALECTS.openai.example, model: 'rerank-v3.5' });
    expect(reply.statusCode).toBe(200);
    expect(reply.headers?.['x-rerank-model']).toBe('length');
    expect(JSON.parse(reply.body as string)).toMatchObject({ model: 'length' });
  });

  it("refuses each dialect's bad body in that dialect's error shape", async () => {
    const { app } = testRuntime({ scorers: [lengthScorer] });
    const bedrock = await post(app, { ...DIALECTS.bedrock.example, queries: [] });
    expect(bedrock.statusCode).toBe(400);
    expect(bedrock.headers?.['x-amzn-ErrorType']).toBe('ValidationException');
    expect(JSON.parse(bedrock.body as string)).toEqual({ message: expect.stringContaining('queries') });
    const tei = await post(app, { query: 'q', texts: 'one' });
    expect(JSON.parse(tei.body as string)).toMatchObject({ error_type: 'Validation' });
    const openai = await post(app, { query: 'q' });
    expect(JSON.parse(openai.body as string)).toMatchObject({ error: { type: 'invalid_request_error' } });
  });
});

describe('Pinecone on /rerank: claimed by its headers', () => {
  it("answers the same Jina-like body in Pinecone's shape with its headers, in OpenAI's without; reads Api-Key as the key", async () => {
    const rt = testRuntime({ scorers: [lengthScorer], open: false });
    const { key } = await rt.keys.create('pinecone');
    const pinecone = await post(rt.app, DIALECTS.pinecone.example, { 'api-key': key, ...DIALECTS.pinecone.exampleHeaders });
    expect(pinecone.statusCode).toBe(200);
    expect(JSON.parse(pinecone.body as string)).toEqual({
      model: 'length',
      data: [
        { index: 1, score: expect.any(Number), document: { text: 'requests is a popular third-party HTTP library for Python' } },
        { index: 0, score: expect.any(Number), document: { text: 'urllib is a built-in Python library for HTTP requests' } },
      ],
      usage: { rerank_units: 1 },
    });
    const jina = await post(rt.app, DIALECTS.pinecone.example, { authorization: `Bearer ${key}` });
    expect(JSON.parse(jina.body as string)).toMatchObject({ object: 'rerank', results: [{ index: 1 }, { index: 0 }] });
    // A wrong key is refused before the body is read, in Pinecone's envelope.
    const refused = await post(rt.app, { not: 'read' }, { 'api-key': 'wrong', ...DIALECTS.pinecone.exampleHeaders });
    expect(refused.statusCode).toBe(401);
    expect(JSON.parse(refused.body as string)).toEqual({
      status: 401,
      error: { code: 'UNAUTHENTICATED', message: expect.stringMatching(/^invalid API key: the Api-Key header/) },
    });
  });
});

describe("Bedrock's InvokeModel: the model is the path's", () => {
  it('reads /model/{model}/invoke as the model (over any model in the body), refusing an unknown one as a ValidationException', async () => {
    const { app } = testRuntime({ scorers: [lengthScorer] });
    const invoke = (path: string, json: unknown) => app.handle(apiGatewayEvent({ method: 'POST', path, json }));
    const ok = await invoke('/model/length/invoke', { ...DIALECTS['bedrock-invoke'].example, model: 'no-such-model' });
    expect(ok.statusCode).toBe(200);
    expect((JSON.parse(ok.body as string) as { results: { index: number }[] }).results.map((r) => r.index)).toEqual([1, 0]);
    const unknown = await invoke(`/model/${encodeURIComponent('no-such:model')}/invoke`, DIALECTS['bedrock-invoke'].example);
    expect(unknown.statusCode).toBe(400);
    expect(unknown.headers?.['x-amzn-ErrorType']).toBe('ValidationException');
    expect(JSON.parse(unknown.body as string)).toEqual({ message: expect.stringContaining('no-such:model') });
  });
});

describe('keys as SigV4 clients present them', () => {
  it('admits a live key as the access key id and refuses a wrong one as an AccessDeniedException, logging neither', async () => {
    const rt = testRuntime({ scorers: [lengthScorer], open: false });
    const { key } = await rt.keys.create('aws-sdk');
    const wrong = `rk-${'Z'.repeat(40)}`;
    logger.setLogLevel('DEBUG');
    const written: string[] = [];
    for (const stream of [process.stdout, process.stderr]) {
      vi.spyOn(stream, 'write').mockImplementation((chunk: string | Uint8Array) => {
        written.push(String(chunk));
        return true;
      });
    }
    const body = JSON.stringify(DIALECTS.bedrock.example);
    const ok = await post(rt.app, DIALECTS.bedrock.example, {
      authorization: await sigV4Authorization('http://localhost/rerank', body, key),
    });
    // Refused before its body is read, yet in Bedrock's shape: the SigV4 header claims the dialect.
    const refused = await post(
      rt.app,
      { not: 'read' },
      { authorization: await sigV4Authorization('http://localhost/rerank', body, wrong) },
    );
    vi.restoreAllMocks();

    expect(ok.statusCode).toBe(200);
    expect(refused.statusCode).toBe(401);
    expect(refused.headers?.['x-amzn-ErrorType']).toBe('AccessDeniedException');
    expect(JSON.parse(refused.body as string)).toEqual({ message: expect.stringMatching(/^invalid API key: the SigV4 access key id/) });
    // The access log and every other line are written, and none carries either key.
    expect(written.join('')).toContain('"path":"/rerank"');
    for (const secret of [key, wrong]) expect(written.join('')).not.toContain(secret);
  });
});
