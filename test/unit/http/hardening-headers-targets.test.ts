import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { failureResult } from '../../../shared/http/api-app.js';
import { toApiGatewayEvent } from '../../../shared/http/node-http-adapter.js';
import { isUnroutableTarget } from '../../../shared/http/request-target.js';
import { createBm25Scorer } from '../../../shared/scoring/lexical/index.js';
import { apiGatewayEvent } from '../../support/event-factory.js';
import { testRuntime } from '../../support/test-runtime.js';

const api = testRuntime({ scorers: [createBm25Scorer({ id: 'bm25' })] }).app;

describe('X-Content-Type-Options: nosniff on every answer', () => {
  it.each([
    ['a 200', apiGatewayEvent({ path: '/v1/rerank', json: { query: 'python', documents: ['python'] } })],
    ['a 400', apiGatewayEvent({ path: '/v1/rerank', json: { query: '', documents: ['a'] } })],
    ['a 404 that echoes the path', apiGatewayEvent({ method: 'GET', path: '/<script>alert(1)</script>' })],
    ['a 405', apiGatewayEvent({ method: 'GET', path: '/v1/rerank' })],
  ])('%s', async (_name, event) => {
    const answer = await api.handle(event);
    expect(answer.headers?.['x-content-type-options']).toBe('nosniff');
  });

  it('an answer built outside the API (a start-up failure)', () => {
    const answer = failureResult(apiGatewayEvent({ path: '/v1/rerank' }), new Error('models did not load'));
    expect(answer.headers?.['x-content-type-options']).toBe('nosniff');
  });
});

/** A request as the local server receives it, with its raw target. */
const requestFor = (target: string) =>
  ({
    url: target,
    method: 'POST',
    httpVersion: '1.1',
    headers: { 'content-type': 'application/json', host: '127.0.0.1:3000' },
    socket: { remoteAddress: '127.0.0.1' },
  }) as unknown as IncomingMessage;

describe('the local server routes the raw request target, as API Gateway does', () => {
  it('never resolves dot segments or a leading //: the event carries the target as sent', () => {
    expect(toApiGatewayEvent(requestFor('/v1/projects/../../v1/rerank'), Buffer.alloc(0)).rawPath).toBe('/v1/projects/../../v1/rerank');
    expect(toApiGatewayEvent(requestFor('//evil.example/v1/rerank'), Buffer.alloc(0)).rawPath).toBe('//evil.example/v1/rerank');
    const withQuery = toApiGatewayEvent(requestFor('/v1/rerank/jobs/j1?wait=5&x=%20y'), Buffer.alloc(0));
    expect([withQuery.rawPath, withQuery.rawQueryString, withQuery.queryStringParameters]).toEqual([
      '/v1/rerank/jobs/j1',
      'wait=5&x=%20y',
      { wait: '5', x: ' y' },
    ]);
  });

  it('refuses absolute-form targets, a leading //, and . or .. segments (encoded too); trailing slashes are fine', () => {
    for (const target of [
      'http://127.0.0.1:3000/v1/rerank',
      '//evil.example/v1/rerank',
      '/v1/projects/../../v1/rerank',
      '/v1/./rerank',
      '/v1/%2e%2e/v1/rerank',
      '/v1/rerank/..?x=1',
      '*',
    ])
      expect([target, isUnroutableTarget(target)]).toEqual([target, true]);
    for (const target of ['/v1/rerank', '/v1/rerank/', '/v1/rerank//', '/health?probe=1', '/v1/files/file-1.jsonl', '/a/...'])
      expect([target, isUnroutableTarget(target)]).toEqual([target, false]);
  });

  it('a dot-segment target that the route table would have matched is a 404 through the API too', async () => {
    const answer = await api.handle(
      toApiGatewayEvent(requestFor('/v1/projects/../../v1/rerank'), Buffer.from('{"query":"q","documents":["a"]}')),
    );
    expect(answer.statusCode).toBe(404);
  });
});
