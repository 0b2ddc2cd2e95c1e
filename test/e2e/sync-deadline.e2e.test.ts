import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevServer, type RunningServer } from '../support/start-dev-server.js';

// `npm start` with a short scoring deadline: a request too big for it gets a 504 that says what to do, the server keeps
// answering meanwhile, and smaller requests are unaffected. (The fixture cross-encoder; 250 long documents take seconds.)
let server: RunningServer;

beforeAll(async () => {
  server = await startDevServer({ RERANK_SYNC_TIMEOUT_MS: '300' });
});

afterAll(async () => {
  await server?.stop();
});

const post = (documents: string[], extra: Record<string, unknown> = {}) =>
  fetch(`${server.url}/v1/rerank`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query: 'python http library', documents, ...extra }),
  });

const longDocuments = () =>
  Array.from({ length: 250 }, (_, i) => `document ${i}: ${'python http clients, sessions, retries and connection pools '.repeat(12)}`);

describe('RERANK_SYNC_TIMEOUT_MS', () => {
  it('plans a request over its budget as a job from the first request on (the pace measured at load), and answers it', async () => {
    const res = await post(longDocuments());
    expect(res.status).toBe(200);
    expect(((await res.json()) as { results: unknown[] }).results).toHaveLength(250);
  });

  it('answers a request that cannot be a job and outlives it with 504 and the way out, while /health keeps answering', async () => {
    // max_chunks_per_doc splits documents and merges their chunks' scores: scored at once, never queued.
    const big = post(longDocuments(), { max_chunks_per_doc: 2 });
    const health = await fetch(`${server.url}/health`);
    expect(health.status).toBe(200);
    const res = await big;
    expect(res.status).toBe(504);
    const body = (await res.json()) as { error: { message: string } };
    expect(body.error.message).toBe(
      // Not "send it as a job": this one cannot be one, and the message says why.
      'scoring 250 documents did not finish within 0.3 s and was stopped; it cannot run as a job (it sets max_chunks_per_doc): send fewer or shorter documents',
    );
    expect((await post(['requests is a Python HTTP library', 'bananas'])).status).toBe(200);
  });
});
