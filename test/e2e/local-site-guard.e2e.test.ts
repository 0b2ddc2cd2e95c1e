import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevServer, type RunningServer } from '../support/start-dev-server.js';

/**
 * `npm start` with no keys (open): a web page must not drive it. Before, it took multipart posts from any page (a form
 * needs no preflight) and answered any Host header, so a DNS-rebinding page could list and read every file.
 */
let server: RunningServer;

beforeAll(async () => {
  server = await startDevServer({ RERANK_ALLOWED_HOSTS: 'rerank.internal' });
}, 90_000);

afterAll(async () => {
  await server?.stop();
});

/** A raw request, so the Host header is the one given (fetch sets its own). */
function get(path: string, host: string): Promise<{ status: number; body: string }> {
  const url = new URL(server.url);
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, path, method: 'GET', headers: { host } }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

const formPost = (headers: Record<string, string>) => {
  const form = new FormData();
  form.set('purpose', 'batch');
  form.set('file', new Blob(['{"a":1}\n']), 'in.jsonl');
  return fetch(`${server.url}/v1/files`, { method: 'POST', headers, body: form });
};

describe('npm start without keys: only its own host names and its own site', () => {
  it('refuses a Host name HOST does not imply (DNS rebinding), in the OpenAI envelope; accepts its own and the configured ones', async () => {
    const port = new URL(server.url).port;
    const rebound = await get('/v1/files', `attacker.example:${port}`);
    expect(rebound.status).toBe(401);
    expect(JSON.parse(rebound.body)).toMatchObject({ error: { message: expect.stringContaining('RERANK_ALLOWED_HOSTS') } });
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `rerank.internal:${port}`])
      expect((await get('/v1/files', host)).status).toBe(200);
  });

  it('refuses a cross-site form post (Sec-Fetch-Site or a foreign Origin) and takes the same post from its own site', async () => {
    const crossSite: Record<string, string>[] = [
      { 'sec-fetch-site': 'cross-site' },
      { origin: 'https://attacker.example' },
      { origin: 'null' },
    ];
    for (const headers of crossSite) {
      const res = await formPost(headers);
      expect(res.status).toBe(401);
      expect(await res.json()).toMatchObject({ error: { type: 'invalid_request_error' } });
    }
    expect((await formPost({ origin: server.url, 'sec-fetch-site': 'same-origin' })).status).toBe(200);
    expect((await formPost({})).status).toBe(200);
  });

  it('refuses a cross-site InvokeModel body without a Content-Type (CORS-simple, read as JSON there) and takes it from its own site', async () => {
    const body = JSON.stringify({ query: 'python http', documents: ['requests is an HTTP library', 'a cake recipe'], api_version: 2 });
    // A Blob without a type: fetch sends no Content-Type, as a page's simple request may.
    const post = (headers: Record<string, string>) =>
      fetch(`${server.url}/model/cohere.rerank-v3-5:0/invoke`, { method: 'POST', headers, body: new Blob([body]) });
    const crossSite: Record<string, string>[] = [{ 'sec-fetch-site': 'cross-site' }, { origin: 'https://attacker.example' }];
    for (const headers of crossSite) {
      const res = await post(headers);
      expect(res.status).toBe(401);
      expect(res.headers.get('x-amzn-errortype')).toBe('AccessDeniedException');
    }
    expect((await post({ origin: server.url, 'sec-fetch-site': 'same-origin' })).status).toBe(200);
    const plain = await fetch(`${server.url}/model/cohere.rerank-v3-5:0/invoke`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body,
    });
    expect(plain.status).toBe(415);
  });
});
