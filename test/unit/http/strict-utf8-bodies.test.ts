import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { keyIdOf } from '../../../shared/auth/api-key.js';
import { invalidUtf8Offset } from '../../../shared/core/strict-utf8.js';
import { toApiGatewayEvent } from '../../../shared/http/node-http-adapter.js';
import { createBm25Scorer } from '../../../shared/scoring/lexical/index.js';
import { apiGatewayEvent } from '../../support/event-factory.js';
import { batchTestRuntime } from '../../support/batch-test-runtime.js';
import { testRuntime } from '../../support/test-runtime.js';

/** `{"query":"caf?","documents":["a"]}` with a lone 0xE9 (Latin-1 é) where UTF-8 needs two bytes: invalid at byte 13. */
const LATIN1_BODY = Buffer.concat([Buffer.from('{"query":"caf'), Buffer.from([0xe9]), Buffer.from('","documents":["a"]}')]);
const OFFSET = 13;

const api = testRuntime({ scorers: [createBm25Scorer({ id: 'bm25' })] }).app;

/** The bytes as API Gateway hands a body it base64-encoded (isBase64Encoded), on a route of each envelope. */
const base64Event = (path: string, bytes: Buffer) => ({
  ...apiGatewayEvent({ path, body: bytes.toString('base64') }),
  isBase64Encoded: true,
});

describe('invalid UTF-8 in a body is a 400 naming the byte offset, in the dialect envelope', () => {
  it('a base64-encoded body (AWS): OpenAI envelope', async () => {
    const answer = await api.handle(base64Event('/v1/rerank', LATIN1_BODY));
    expect(answer.statusCode).toBe(400);
    expect(JSON.parse(answer.body as string)).toMatchObject({
      error: { message: `the request body is not valid UTF-8: an invalid byte sequence starts at byte offset ${OFFSET}`, param: 'body' },
    });
  });

  it('a base64-encoded body (AWS): NIM envelope', async () => {
    const prefix = Buffer.from('{"model":"bm25","query":{"text":"caf');
    const nim = Buffer.concat([prefix, Buffer.from([0xe9]), Buffer.from('"},"passages":[{"text":"a"}]}')]);
    const answer = await api.handle(base64Event('/v1/ranking', nim));
    expect(answer.statusCode).toBe(400);
    expect(JSON.parse(answer.body as string)).toEqual({
      detail: `the request body is not valid UTF-8: an invalid byte sequence starts at byte offset ${prefix.length}`,
    });
  });

  it('the local server hands invalid bytes on as bytes (base64), never as U+FFFD text, so the API refuses them', async () => {
    const req = {
      url: '/v1/rerank',
      method: 'POST',
      httpVersion: '1.1',
      headers: { 'content-type': 'application/json', host: '127.0.0.1:3000' },
      socket: { remoteAddress: '127.0.0.1' },
    } as unknown as IncomingMessage;
    const event = toApiGatewayEvent(req, LATIN1_BODY);
    expect(event.isBase64Encoded).toBe(true);
    expect(Buffer.from(event.body as string, 'base64')).toEqual(LATIN1_BODY);
    const answer = await api.handle(event);
    expect(answer.statusCode).toBe(400);
    expect(answer.body).toContain(`byte offset ${OFFSET}`);
    // Valid UTF-8 still crosses as text.
    expect(toApiGatewayEvent(req, Buffer.from('{"query":"café"}')).isBase64Encoded).toBe(false);
  });
});

describe('invalid UTF-8 in a batch input line is an error line naming the byte offset', () => {
  it('fails that line and scores the others', async () => {
    const rt = batchTestRuntime([createBm25Scorer({ id: 'bm25' })]);
    const good = JSON.stringify({ custom_id: 'ok', method: 'POST', url: '/v1/rerank', body: { query: 'python', documents: ['python'] } });
    const prefix = Buffer.from('{"custom_id":"latin1","method":"POST","url":"/v1/rerank","body":{"query":"caf');
    const bad = Buffer.concat([prefix, Buffer.from([0xe9]), Buffer.from('","documents":["a"]}}')]);
    const file = await rt.files.put(
      keyIdOf('key-a'),
      'in.jsonl',
      'batch',
      Buffer.concat([Buffer.from(`${good}\n`), bad, Buffer.from('\n')]),
    );
    const create = await rt.app.handle(
      apiGatewayEvent({
        path: '/v1/batches',
        json: { input_file_id: file.id, endpoint: '/v1/rerank', completion_window: '24h' },
        headers: { authorization: 'Bearer key-a' },
      }),
    );
    const id = (JSON.parse(create.body as string) as { id: string }).id;
    await rt.queue.run();
    const done = JSON.parse(
      (await rt.app.handle(apiGatewayEvent({ method: 'GET', path: `/v1/batches/${id}`, headers: { authorization: 'Bearer key-a' } })))
        .body as string,
    ) as { request_counts: unknown; error_file_id: string };
    expect(done.request_counts).toMatchObject({ total: 2, completed: 1, failed: 1 });
    const [error] = rt.files
      .text(done.error_file_id)
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { error: { code: string; message: string } });
    expect(error?.error.code).toBe('invalid_json');
    expect(error?.error.message).toBe(
      `line 2: the line is not valid UTF-8: an invalid byte sequence starts at byte offset ${prefix.length} (one request object per line)`,
    );
  });
});

describe('invalid UTF-8 in a corpus line is an error line for each batch line over it, naming the corpus line and byte offset', () => {
  it('fails the lines over that corpus and scores a line over another', async () => {
    const rt = batchTestRuntime([createBm25Scorer({ id: 'bm25' })]);
    const owner = keyIdOf('key-a');
    const badDoc = Buffer.concat([Buffer.from('"caf'), Buffer.from([0xe9]), Buffer.from(' au lait"')]);
    const bad = await rt.files.put(
      owner,
      'bad.jsonl',
      'user_data',
      Buffer.concat([Buffer.from('"python http"\n'), badDoc, Buffer.from('\n')]),
    );
    const good = await rt.files.put(owner, 'good.jsonl', 'user_data', '"python http"\n"lemon cake"\n');
    const line = (customId: string, fileId: string) =>
      JSON.stringify({
        custom_id: customId,
        method: 'POST',
        url: '/v1/rerank',
        body: { model: 'bm25', query: 'python', documents_file_id: fileId },
      });
    const input = await rt.files.put(
      owner,
      'in.jsonl',
      'batch',
      [line('b1', bad.id), line('g', good.id), line('b2', bad.id)].join('\n') + '\n',
    );
    const auth = { authorization: 'Bearer key-a' };
    const create = await rt.app.handle(
      apiGatewayEvent({
        path: '/v1/batches',
        json: { input_file_id: input.id, endpoint: '/v1/rerank', completion_window: '24h' },
        headers: auth,
      }),
    );
    const id = (JSON.parse(create.body as string) as { id: string }).id;
    await rt.queue.run();
    const done = JSON.parse(
      (await rt.app.handle(apiGatewayEvent({ method: 'GET', path: `/v1/batches/${id}`, headers: auth }))).body as string,
    ) as {
      request_counts: unknown;
      error_file_id: string;
    };
    expect(done.request_counts).toMatchObject({ total: 3, completed: 1, failed: 2 });
    const errors = rt.files
      .text(done.error_file_id)
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { custom_id: string; error: { code: string; message: string } });
    expect(errors.map((e) => [e.custom_id, e.error.code])).toEqual([
      ['b1', 'invalid_request'],
      ['b2', 'invalid_request'],
    ]);
    for (const error of errors)
      expect(error.error.message).toContain(
        'documents_file_id line 2 is not valid UTF-8: an invalid byte sequence starts at byte offset 4',
      );
  });
});

describe('invalidUtf8Offset', () => {
  it('finds the first byte of the first ill-formed sequence, as TextDecoder refuses them', () => {
    const at = (...bytes: number[]) => invalidUtf8Offset(Uint8Array.from(bytes));
    expect(at(0x61, 0xc3, 0xa9)).toBe(-1); // é
    expect(at(0x61, 0xf0, 0x9f, 0x98, 0x80)).toBe(-1); // an emoji
    expect(at(0x61, 0xc0, 0xaf)).toBe(1); // overlong
    expect(at(0x61, 0x62, 0xed, 0xa0, 0x80)).toBe(2); // a surrogate
    expect(at(0x61, 0xe2, 0x82)).toBe(1); // cut short
    expect(at(0xf4, 0x90, 0x80, 0x80)).toBe(0); // past U+10FFFF
    expect(at(0x80)).toBe(0); // a lone continuation byte
  });
});
