import type { Context } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { openExchange } from '../../../shared/http/pipeline/api-exchange.js';
import { responseLimit } from '../../../shared/http/pipeline/api-middlewares.js';
import { LAMBDA_MAX_RESPONSE_BYTES, lambdaResultBytes } from '../../../shared/http/response-size.js';
import { createBm25Scorer } from '../../../shared/scoring/lexical/index.js';
import { apiGatewayEvent } from '../../support/event-factory.js';
import { testRuntime } from '../../support/test-runtime.js';

/** 2.5 MB of caller text: echoed three times, a 400 was 7.5 MB, over what Lambda can return (API Gateway then answers 5xx). */
const HUGE = 'x'.repeat(2_500_000);
/** What a 400 that quotes caller text may weigh at most: the cut echo (256 characters) a few times, and the envelope. */
const SMALL_ANSWER_BYTES = 4_096;

const api = testRuntime({ scorers: [createBm25Scorer({ id: 'bm25' })], limits: { maxBodyBytes: 6 * 1024 * 1024 } }).app;

const post = (path: string, json: unknown, headers: Record<string, string> = {}) => api.handle(apiGatewayEvent({ path, json, headers }));

/** Each place the probe found caller text echoed into a 400, by dialect. */
const ECHOES: readonly (readonly [string, () => ReturnType<typeof post>])[] = [
  ['OpenAI model name', () => post('/v1/rerank', { model: HUGE, query: 'q', documents: ['a'] })],
  ['Cohere rank_fields', () => post('/v1/rerank', { query: 'q', documents: [{ text: 'a' }], rank_fields: [HUGE] })],
  ['Mixedbread rank_fields', () => post('/v1/reranking', { query: 'q', input: [{ text: 'a' }], rank_fields: [HUGE] })],
  ['NIM truncate', () => post('/v1/ranking', { model: 'bm25', query: { text: 'q' }, passages: [{ text: 'a' }], truncate: HUGE })],
  ['TEI truncation_direction', () => post('/rerank', { query: 'q', texts: ['a'], truncation_direction: HUGE })],
  [
    'Bedrock source type',
    () =>
      post(
        '/rerank',
        {
          queries: [{ type: 'TEXT', textQuery: { text: 'q' } }],
          sources: [{ type: HUGE, inlineDocumentSource: { type: 'TEXT', textDocument: { text: 'a' } } }],
          rerankingConfiguration: {
            type: 'BEDROCK_RERANKING_MODEL',
            bedrockRerankingConfiguration: { modelConfiguration: { modelArn: 'arn:aws:bedrock:us-east-1::foundation-model/bm25' } },
          },
        },
        { authorization: 'AWS4-HMAC-SHA256 Credential=local/20260101/us-east-1/bedrock/aws4_request, SignedHeaders=host, Signature=0' },
      ),
  ],
  [
    'Pinecone parameters.truncate',
    () =>
      post(
        '/rerank',
        { model: 'bm25', query: 'q', documents: ['a'], parameters: { truncate: HUGE } },
        { 'x-pinecone-api-version': '2025-04' },
      ),
  ],
];

describe('echoed caller text is cut in every error message', () => {
  it.each(ECHOES)('%s: a small 4xx that quotes at most the first 256 characters', async (_name, send) => {
    const answer = await send();
    expect(answer.statusCode).toBeGreaterThanOrEqual(400);
    expect(answer.statusCode).toBeLessThan(500);
    expect(Buffer.byteLength(answer.body as string)).toBeLessThan(SMALL_ANSWER_BYTES);
    expect(answer.body as string).toMatch(/x{256}\.\.\./);
    expect(answer.body as string).not.toMatch(/x{257}/);
  });
});

describe('every answer goes through the response size limit, errors included', () => {
  it('an error answer over what Lambda can return becomes the 413 that says so (middy skips `after` for thrown errors)', async () => {
    const event = apiGatewayEvent({ path: '/v1/rerank', json: { query: 'q', documents: ['a'] } });
    const exchange = openExchange(event);
    const limit = responseLimit();
    const request = {
      event: exchange,
      context: {} as Context,
      error: new Error('thrown by a route'),
      response: { statusCode: 400, headers: {}, body: JSON.stringify({ error: { message: 'x'.repeat(LAMBDA_MAX_RESPONSE_BYTES) } }) },
      internal: {},
    };
    await limit.onError?.(request as never);
    expect(request.response.statusCode).toBe(413);
    expect(lambdaResultBytes(request.response)).toBeLessThanOrEqual(LAMBDA_MAX_RESPONSE_BYTES);
  });
});
