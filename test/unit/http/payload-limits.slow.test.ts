import { describe, expect, it } from 'vitest';
import type { Scorer } from '../../../shared/core/scorer.js';
import type { ApiApp } from '../../../shared/http/api-app.js';
import { LAMBDA_MAX_RESPONSE_BYTES, lambdaResultBytes } from '../../../shared/http/response-size.js';
import { apiGatewayEvent } from '../../support/event-factory.js';
import { testRuntime } from '../../support/test-runtime.js';
import { batchTestRuntime } from '../../support/batch-test-runtime.js';

// A fake Scorer port (unit test): sizes are what this file is about, not scores.
const lengthScorer: Scorer = {
  id: 'length',
  scoreKind: 'similarity',
  score: async (_q, docs) => ({ scores: docs.map((d) => d.length), tokens: docs.length }),
};

const MAX_BODY_BYTES = 6 * 1024 * 1024;

function app(): ApiApp {
  return testRuntime({
    scorers: [lengthScorer],
    limits: { maxBodyBytes: MAX_BODY_BYTES, maxDocuments: 10_000 },
    plan: { syncMaxDocuments: 10_000, syncMaxChars: 1 << 30 },
  }).app;
}

const event = (path: string, body: string) => apiGatewayEvent({ path, body, requestId: 'req-1' });

/**
 * 1,000 documents of `size` characters, all quotes (think code or JSON documents): JSON escapes each once in the
 * request body and twice in a Lambda result (the body is itself a JSON string there), so the answer is about
 * twice the request.
 */
const documents = (size: number): string[] => Array.from({ length: 1000 }, (_, i) => `${i} `.padEnd(size, '"'));

describe('payload limits: every accepted size gets an answer Lambda can return', () => {
  const api = app();

  it('answers a body of exactly the limit and refuses one byte more with 413, in the dialect envelope', async () => {
    const base = JSON.stringify({ query: 'q', documents: ['a'] });
    const atLimit = base.slice(0, -1) + ' '.repeat(MAX_BODY_BYTES - Buffer.byteLength(base)) + '}';
    expect(Buffer.byteLength(atLimit)).toBe(MAX_BODY_BYTES);
    const ok = await api.handle(event('/v1/rerank', atLimit));
    expect(ok.statusCode).toBe(200);
    const over = await api.handle(event('/v1/rerank', atLimit + ' '));
    expect(over.statusCode).toBe(413);
    expect(JSON.parse(over.body as string)).toMatchObject({
      error: { message: expect.stringContaining(`limit is ${MAX_BODY_BYTES} bytes`) },
    });
  });

  it('turns an answer over 6 MB into a 413 that says how to shrink it, on every dialect, and keeps answers at or under it', async () => {
    // Requests of 2.6 MB to 6 MB whose answers with return_documents span 5.2 MB to 12 MB.
    const sizes = [1300, 1450, 1500, 1550, 1700, 2900];
    const seen = new Set<number>();
    for (const size of sizes) {
      const docs = documents(size);
      const requests: [string, unknown][] = [
        ['/v1/rerank', { query: 'q', documents: docs, return_documents: true }],
        ['/v2/rerank', { model: 'length', query: 'q', documents: docs, return_documents: true }],
        [
          '/api/v1/services/rerank/text-rerank/text-rerank',
          { input: { query: 'q', documents: docs }, parameters: { return_documents: true } },
        ],
      ];
      for (const [path, request] of requests) {
        const body = JSON.stringify(request);
        if (Buffer.byteLength(body) > MAX_BODY_BYTES) continue;
        const response = await api.handle(event(path, body));
        seen.add(response.statusCode ?? 0);
        // The invariant: whatever the size, the serialized result fits in what Lambda can return.
        expect(lambdaResultBytes(response), `${path} ${size}`).toBeLessThanOrEqual(LAMBDA_MAX_RESPONSE_BYTES);
        if (response.statusCode === 413) {
          expect(response.body, path).toMatch(/over the 6291456-byte limit of one answer: set return_documents to false/);
          expect(response.headers?.['x-request-id']).toBe('req-1');
          // The same request without documents in the answer is served.
          const lean = JSON.parse(body.replace(/"return_documents":true/, '"return_documents":false')) as unknown;
          expect((await api.handle(event(path, JSON.stringify(lean)))).statusCode, `${path} ${size} lean`).toBe(200);
        } else {
          expect(response.statusCode, `${path} ${size}`).toBe(200);
        }
      }
    }
    // The sweep crossed the boundary: some answers fit, some had to be refused.
    expect([...seen].sort()).toEqual([200, 413]);
  });
});

describe('payload limits: a file past the body limit on POST /v1/files (the handler, as on AWS)', () => {
  it('answers 413 naming the Uploads API and the part size; a part past it names the part size', async () => {
    const rt = batchTestRuntime([lengthScorer]);
    const boundary = 'b0undary';
    const form = (field: string, bytes: number) =>
      `--${boundary}\r\ncontent-disposition: form-data; name="purpose"\r\n\r\nbatch\r\n--${boundary}\r\ncontent-disposition: form-data; name="${field}"; filename="big.jsonl"\r\n\r\n${'a'.repeat(bytes)}\r\n--${boundary}--\r\n`;
    const headers = { authorization: 'Bearer key-a', 'content-type': `multipart/form-data; boundary=${boundary}` };
    const file = await rt.app.handle(apiGatewayEvent({ method: 'POST', path: '/v1/files', body: form('file', MAX_BODY_BYTES), headers }));
    expect(file.statusCode).toBe(413);
    expect(JSON.parse(file.body as string)).toMatchObject({
      error: {
        param: 'file',
        code: 'payload_too_large',
        message: expect.stringMatching(/limit is \d+ bytes.*POST \/v1\/uploads .*parts of at most 4194304 bytes/),
      },
    });
    const part = await rt.app.handle(
      apiGatewayEvent({ method: 'POST', path: '/v1/uploads/upload_x/parts', body: form('data', MAX_BODY_BYTES), headers }),
    );
    expect(part.statusCode).toBe(413);
    expect(JSON.parse(part.body as string)).toMatchObject({
      error: { param: 'data', message: expect.stringMatching(/an upload part is at most 4194304 bytes/) },
    });
  });
});
