import { describe, expect, it } from 'vitest';
import { lambdaResult } from '../../../shared/http/lambda-result.js';
import { STREAMED_BODY, type StreamedResult } from '../../../shared/http/streamed-result.js';

async function* pieces(...parts: Buffer[]): AsyncIterable<Uint8Array> {
  yield* parts;
}

describe('lambdaResult', () => {
  it('passes a plain result through and turns a streamed body into the base64 payload Lambda returns', async () => {
    const plain = { statusCode: 200, body: '{}' };
    expect(await lambdaResult(plain)).toBe(plain);
    const streamed: StreamedResult = {
      statusCode: 200,
      headers: { 'content-type': 'application/octet-stream' },
      [STREAMED_BODY]: pieces(Buffer.from('ab'), Buffer.from('c')),
    };
    expect(await lambdaResult(streamed)).toEqual({
      statusCode: 200,
      headers: { 'content-type': 'application/octet-stream', 'content-length': '3' },
      body: 'YWJj',
      isBase64Encoded: true,
    });
  });

  it('answers 413 instead of a payload over 6 MB, without reading the rest', async () => {
    let read = 0;
    async function* big(): AsyncIterable<Uint8Array> {
      for (let i = 0; i < 100; i++) {
        read += 1;
        yield Buffer.alloc(1024 * 1024);
      }
    }
    const result = await lambdaResult({ statusCode: 200, [STREAMED_BODY]: big() } as StreamedResult);
    expect(result.statusCode).toBe(413);
    expect(read).toBeLessThan(6);
  });
});
