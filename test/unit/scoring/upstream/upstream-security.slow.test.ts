import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RerankError } from '../../../../shared/core/rerank-error.js';
import type { UpstreamReranker } from '../../../../shared/core/rerank-request.js';
import { createUpstreamScorer } from '../../../../shared/scoring/upstream/upstream-scorer.js';

// Issue 17 (SSRF by redirect, upstream bodies unbounded): an allow-listed upstream that redirects to a
// second local server (standing in for a cloud metadata endpoint), or that answers with a huge body.
type Handler = (req: IncomingMessage, res: ServerResponse) => void;

async function listen(handler: Handler): Promise<{ server: Server; host: string }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, host: `127.0.0.1:${(server.address() as { port: number }).port}` };
}

const close = (server: Server) => {
  server.closeAllConnections();
  return new Promise<void>((resolve) => server.close(() => resolve()));
};

const SECRET_BODY = 'metadata-secret-AKIAEXAMPLE';
let forbidden: { server: Server; host: string };
let forbiddenHits = 0;
let upstream: { server: Server; host: string };
let upstreamHits = 0;

beforeAll(async () => {
  forbidden = await listen((_req, res) => {
    forbiddenHits++;
    res.writeHead(200, { 'content-type': 'text/plain' }).end(SECRET_BODY);
  });
  upstream = await listen((req, res) => {
    upstreamHits++;
    const path = req.url ?? '/';
    const redirect = /^\/(30[12378])\//.exec(path);
    if (redirect) {
      // The redirect body quotes the secret too: it must not be read either.
      res
        .writeHead(Number(redirect[1]), { location: `http://${forbidden.host}/latest/meta-data`, 'content-type': 'text/plain' })
        .end(SECRET_BODY);
      return;
    }
    if (path.startsWith('/error/')) {
      res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: SECRET_BODY } }));
      return;
    }
    if (path.startsWith('/huge/')) {
      // 64 MiB streamed without Content-Length, far past the cap for two short documents.
      res.writeHead(200, { 'content-type': 'application/json' });
      const block = Buffer.alloc(1024 * 1024, 0x20);
      let sent = 0;
      const pump = () => {
        while (sent < 64 && res.write(block)) sent++;
        if (sent < 64) res.once('drain', pump);
        else res.end();
      };
      res.on('error', () => undefined);
      pump();
      return;
    }
    res.writeHead(404).end();
  });
});

afterAll(async () => {
  await close(forbidden.server);
  await close(upstream.server);
});

const config = (apiUrl: string): UpstreamReranker => ({
  apiUrl,
  apiKey: 'sk-upstream-secret',
  mode: 'openai',
  model: undefined,
  timeoutMs: 10_000,
});

const failure = async (apiUrl: string): Promise<RerankError> => {
  const scorer = createUpstreamScorer(config(apiUrl), [upstream.host]);
  const error = await scorer.score('q', ['a', 'b']).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(RerankError);
  return error as RerankError;
};

describe('upstream scorer against hostile upstreams', () => {
  it.each([301, 302, 303, 307, 308])('does not follow a %i redirect to another host, and reports only the status', async (status) => {
    const before = upstreamHits;
    const error = await failure(`http://${upstream.host}/${status}/v1`);
    expect(upstreamHits).toBe(before + 1);
    expect(forbiddenHits).toBe(0);
    expect(error.kind).toBe('upstream');
    expect(error.message).toContain(`HTTP ${status}`);
    expect(error.message).not.toContain(SECRET_BODY);
    expect(error.message).not.toContain(forbidden.host);
    expect(error.cause).toBeUndefined();
  });

  it('never quotes an upstream error body', async () => {
    const error = await failure(`http://${upstream.host}/error/v1`);
    expect(error.message).toContain('HTTP 500');
    expect(error.message).not.toContain(SECRET_BODY);
  });

  it('cuts off a reply larger than its cap instead of buffering it', async () => {
    const error = await failure(`http://${upstream.host}/huge/v1`);
    expect(error.kind).toBe('upstream');
    expect(error.message).toMatch(/exceeded \d+ bytes/);
  });

  it('refuses credentials in api_url and never echoes a query string', async () => {
    expect(() => createUpstreamScorer(config(`http://user:pa55word@${upstream.host}/v1`), [upstream.host])).toThrow(
      /must not contain credentials/,
    );
    try {
      createUpstreamScorer(config(`http://user:pa55word@${upstream.host}/v1`), [upstream.host]);
    } catch (error) {
      expect((error as Error).message).not.toContain('pa55word');
    }
    const error = await failure(`http://${upstream.host}/error/v1?api_key=sk-in-query`);
    expect(error.message).not.toContain('sk-in-query');
  });
});
