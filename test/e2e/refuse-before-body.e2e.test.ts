import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevServer, type RunningServer } from '../support/start-dev-server.js';

/**
 * Issue 21 item 8: the local server read a whole 10 MB body before checking the key. These requests announce a large
 * body with "Expect: 100-continue" (as curl does past 1 MB) and never send it: an answer can only come from the
 * headers, so receiving one proves the body was not awaited. A client that sends its body without asking is answered
 * once the body has gone by, read and dropped (the malformed-requests suite sends 7 MiB that way).
 */
const KEY = 'sk-before-body-key';
let server: RunningServer;

beforeAll(async () => {
  server = await startDevServer({ RERANK_API_KEYS: KEY });
});

afterAll(async () => {
  await server?.stop();
});

/** Sends the request line and headers only, and resolves as soon as one whole final response has arrived. */
function headersOnly(path: string, headers: Record<string, string>, body = ''): Promise<{ status: number; body: unknown; raw: string }> {
  const { hostname, port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const socket: Socket = connect(Number(port), hostname, () => {
      const lines = [
        `POST ${path} HTTP/1.1`,
        `host: ${hostname}:${port}`,
        'content-type: application/json',
        'expect: 100-continue',
        ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
      ];
      socket.write(`${lines.join('\r\n')}\r\n\r\n`);
    });
    let raw = '';
    socket.setEncoding('utf8');
    socket.on('error', reject);
    socket.on('data', (chunk: string) => {
      raw += chunk;
      if (raw.startsWith('HTTP/1.1 100 Continue\r\n\r\n')) {
        // Asked to go on: the server accepted the headers, so the body is sent now.
        raw = raw.slice('HTTP/1.1 100 Continue\r\n\r\n'.length);
        socket.write(body);
      }
      const headEnd = raw.indexOf('\r\n\r\n');
      const length = Number(/content-length: (\d+)/i.exec(raw)?.[1]);
      if (headEnd < 0 || !Number.isFinite(length) || raw.length < headEnd + 4 + length) return;
      socket.destroy();
      resolve({
        status: Number(/^HTTP\/1\.1 (\d{3})/.exec(raw)?.[1]),
        body: JSON.parse(raw.slice(headEnd + 4, headEnd + 4 + length)) as unknown,
        raw,
      });
    });
  });
}

describe('the local server refuses on the headers, before reading a body', () => {
  it('answers a request without a key 401 in the route envelope while its 10 MB body is still unsent, and closes', async () => {
    const reply = await headersOnly('/v1/rerank', { 'content-length': String(10 * 1024 * 1024) });
    expect(reply.status).toBe(401);
    expect(reply.body).toMatchObject({ error: { code: 'invalid_api_key' } });
    const dashScope = await headersOnly('/api/v1/services/rerank/text-rerank/text-rerank', {
      'content-length': '5000000',
      authorization: 'Bearer wrong',
    });
    expect(dashScope.status).toBe(401);
    expect(dashScope.body).toMatchObject({ code: 'InvalidApiKey' });
  });

  it('answers an announced body over RERANK_MAX_BODY_BYTES 413 without reading it, even with a valid key', async () => {
    const reply = await headersOnly('/v1/rerank', { 'content-length': String(6 * 1024 * 1024 + 1), authorization: `Bearer ${KEY}` });
    expect(reply.status).toBe(413);
    expect(reply.body).toMatchObject({ error: { code: 'payload_too_large', message: expect.stringMatching(/limit is 6291456 bytes/) } });
  });

  it('asks a client that expects 100-continue for the body of a request it accepts', async () => {
    const body = JSON.stringify({ query: 'python http', documents: ['requests is an HTTP library', 'pandas eat bamboo'] });
    const reply = await headersOnly(
      '/v1/rerank',
      { 'content-length': String(Buffer.byteLength(body)), authorization: `Bearer ${KEY}` },
      body,
    );
    expect(reply.status).toBe(200);
    expect((reply.body as { results: unknown[] }).results).toHaveLength(2);
  });

  it('answers a key-less client that sends its 7 MiB body without asking once the body has gone by, not with a reset', async () => {
    const res = await fetch(`${server.url}/v1/rerank`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: 'x'.repeat(7 * 1024 * 1024),
    });
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ error: { code: 'invalid_api_key' } });
  });

  it('answers a path with no route without its body, and still serves a valid request in full', async () => {
    const unknown = await headersOnly('/v1/nothing-here', { 'content-length': '9000000', authorization: `Bearer ${KEY}` });
    expect(unknown.status).toBe(404);
    const ok = await fetch(`${server.url}/v1/rerank`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${KEY}` },
      body: JSON.stringify({ query: 'python http', documents: ['requests is an HTTP library', 'pandas eat bamboo'] }),
    });
    expect(ok.status).toBe(200);
  });
});
