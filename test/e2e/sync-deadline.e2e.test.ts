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

const post = (documents: string[]) =>
  fetch(`${server.url}/v1/rerank`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: 'python http library', documents }) });

describe('RERANK_SYNC_TIMEOUT_MS', () => {
  it('answers a request that outlives it with 504 and the way out, while /health keeps answering', async () => {
    const documents = Array.from({ length: 250 }, (_, i) => `document ${i}: ${'python http clients, sessions, retries and connection pools '.repeat(12)}`);
    const big = post(documents);
    const health = await fetch(`${server.url}/health`);
    expect(health.status).toBe(200);
    const res = await big;
    expect(res.status).toBe(504);
    const body = (await res.json()) as { error: { message: string } };
    expect(body.error.message).toBe(
      'scoring 250 documents did not finish within 0.3 s and was stopped; send the request as a job ("Prefer: respond-async" or POST /v1/rerank/jobs), or fewer or shorter documents',
    );
    expect((await post(['requests is a Python HTTP library', 'bananas'])).status).toBe(200);
  });
});
