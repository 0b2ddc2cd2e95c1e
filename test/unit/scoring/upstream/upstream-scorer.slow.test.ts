import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RerankError } from '../../../../shared/core/rerank-error.js';
import type { UpstreamReranker } from '../../../../shared/core/rerank-request.js';
import { createUpstreamScorer } from '../../../../shared/scoring/upstream/upstream-scorer.js';

// A real HTTP upstream speaking the chat dialect with seed 001's "direct list" reply format.
let server: Server;
let host: string;
let lastAuthorization: string | undefined;

beforeAll(async () => {
  server = createServer((req, res) => {
    lastAuthorization = req.headers.authorization;
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const data = JSON.parse((JSON.parse(body) as { messages: { content: string }[] }).messages[0]?.content ?? '{}') as {
        candidates: string[];
      };
      if (data.candidates.includes('fail')) {
        res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":{"message":"upstream exploded"}}');
        return;
      }
      // Ranks by length, omits the last candidate, answers [[document, score], ...] with negative logits.
      const ranked = data.candidates.slice(0, -1).map((text) => [text, -10 + text.length]);
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(
          JSON.stringify({ choices: [{ message: { role: 'assistant', content: JSON.stringify(ranked) } }], usage: { total_tokens: 7 } }),
        );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as { port: number };
  host = `127.0.0.1:${address.port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const upstream = (overrides: Partial<UpstreamReranker> = {}): UpstreamReranker => ({
  apiUrl: `http://${host}/v1`,
  apiKey: 'sk-upstream-secret',
  mode: 'chat',
  model: 'upstream-model',
  timeoutMs: 5_000,
  ...overrides,
});

describe('createUpstreamScorer', () => {
  it('maps the upstream ranking back to input order, with NaN for documents it left out', async () => {
    const scorer = createUpstreamScorer(upstream(), [host]);
    const batch = await scorer.score('q', ['aaa', 'a', 'aaaaa', 'left out']);
    expect(batch.scores.slice(0, 3)).toEqual([-7, -9, -5]);
    expect(Number.isNaN(batch.scores[3])).toBe(true);
    expect(batch.tokens).toBe(7);
    expect(lastAuthorization).toBe('Bearer sk-upstream-secret');
    expect(scorer.candidateRelative).toBe(true);
  });

  it('refuses hosts that are not allow-listed, before any request', () => {
    expect(() => createUpstreamScorer(upstream(), ['example.com'])).toThrow(/not allowed/);
    expect(() => createUpstreamScorer(upstream({ apiUrl: 'file:///etc/passwd' }), ['*'])).toThrow(RerankError);
    expect(() => createUpstreamScorer(upstream({ apiUrl: 'not a url' }), ['*'])).toThrow(/absolute/);
  });

  it('wraps upstream failures as upstream errors without the key', async () => {
    const scorer = createUpstreamScorer(upstream(), ['*']);
    const error = await scorer.score('q', ['fail', 'x']).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RerankError);
    expect((error as RerankError).kind).toBe('upstream');
    expect((error as RerankError).message).toContain(host);
    expect((error as RerankError).message).not.toContain('sk-upstream-secret');
  });

  it('times out a slow upstream', async () => {
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as { port: number }).port;
    try {
      const scorer = createUpstreamScorer(upstream({ apiUrl: `http://127.0.0.1:${port}/v1`, timeoutMs: 200 }), ['*']);
      const error = await scorer.score('q', ['a']).catch((e: unknown) => e);
      expect((error as RerankError).kind).toBe('upstream');
    } finally {
      silent.closeAllConnections();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });
});
