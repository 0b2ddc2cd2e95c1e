import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import type { ApiApp } from '../../../shared/http/api-app.js';
import type { Scorer } from '../../../shared/core/scorer.js';
import { testRuntime } from '../../support/test-runtime.js';

// A fake Scorer port (unit test): scores are the document lengths.
const lengthScorer: Scorer = {
  id: 'length',
  scoreKind: 'similarity',
  score: async (_q, docs) => ({ scores: docs.map((d) => d.length), tokens: docs.length }),
};

function app(): ApiApp {
  return testRuntime({ scorers: [lengthScorer] }).app;
}

const event = (
  method: string,
  rawPath: string,
  stage: string,
  body?: unknown,
  headers: Record<string, string> = {},
): APIGatewayProxyEventV2 => ({
  version: '2.0',
  routeKey: '$default',
  rawPath,
  rawQueryString: '',
  headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
  requestContext: {
    accountId: '1',
    apiId: 'a',
    domainName: 'x',
    domainPrefix: 'x',
    http: { method, path: rawPath, protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 't' },
    requestId: 'req-1',
    routeKey: '$default',
    stage,
    time: '',
    timeEpoch: 0,
  },
  isBase64Encoded: false,
  ...(body === undefined ? {} : { body: JSON.stringify(body) }),
});

describe('ApiApp behind a named API Gateway stage', () => {
  it('routes /prod/v1/rerank like /v1/rerank', async () => {
    const res = await app().handle(event('POST', '/prod/v1/rerank', 'prod', { query: 'q', documents: ['aa', 'a', 'aaa'] }));
    expect(res.statusCode).toBe(200);
    expect((JSON.parse(res.body as string) as { results: { index: number }[] }).results.map((r) => r.index)).toEqual([2, 0, 1]);
  });

  it('answers 202 with a poll URL under the stage and a Retry-After', async () => {
    const res = await app().handle(
      event('POST', '/prod/v1/rerank', 'prod', { query: 'q', documents: ['a', 'b'] }, { prefer: 'respond-async' }),
    );
    expect(res.statusCode).toBe(202);
    const body = JSON.parse(res.body as string) as { poll_url: string };
    expect(body.poll_url).toMatch(/^\/prod\/v1\/rerank\/jobs\/[\w-]+$/);
    expect(res.headers?.['location']).toBe(body.poll_url);
    expect(res.headers?.['retry-after']).toBe('1');
  });

  it('keeps paths as they are on the $default stage', async () => {
    const res = await app().handle(event('POST', '/prod/v1/rerank', '$default', { query: 'q', documents: ['a'] }));
    expect(res.statusCode).toBe(404);
  });
});
