import { describe, expect, it } from 'vitest';
import { InMemoryQuotaLedger } from '../../../shared/adapters/memory/in-memory-quota-ledger.js';
import type { Caller } from '../../../shared/auth/caller.js';
import { DEFAULT_FILE_LIMITS } from '../../../shared/files/file-limits.js';
import { FilesService } from '../../../shared/files/files-service.js';
import { rangeAsked } from '../../../shared/http/files/byte-range.js';
import { FilesApi } from '../../../shared/http/files/files-api.js';
import { LAMBDA_PART_BYTES, lambdaResult } from '../../../shared/http/lambda-result.js';
import { apiGatewayEvent } from '../../support/event-factory.js';
import { InMemoryFileStore } from '../../support/in-memory-file-store.js';

/** A file larger than one Lambda answer: 9 MiB of a repeating, position-revealing pattern. */
const FILE_BYTES = 9 * 1024 * 1024;
const content = Buffer.alloc(FILE_BYTES, 0);
for (let i = 0; i < FILE_BYTES; i++) content[i] = i % 251;

async function* once(bytes: Buffer): AsyncIterable<Uint8Array> {
  yield bytes;
}

async function filesApiWithFile(): Promise<{ api: FilesApi; id: string }> {
  const service = new FilesService(new InMemoryFileStore({ readPieceBytes: 64 * 1024 }), DEFAULT_FILE_LIMITS, {
    quota: new InMemoryQuotaLedger(),
  });
  const file = await service.create('key-a', { filename: 'output.jsonl', purpose: 'batch', size: FILE_BYTES }, once(content));
  return { api: new FilesApi(service), id: file.id };
}

const caller: Caller = { keyId: 'key-a' };

/** GET /v1/files/{id}/content through the Files API, then through the API Lambda's answer (the 6 MB cap). */
async function getContent(api: FilesApi, id: string, range?: string) {
  const event = apiGatewayEvent({ method: 'GET', path: `/v1/files/${id}/content`, headers: range ? { range } : {} });
  const request = {
    event,
    caller,
    params: { id },
    readBytes: () => new Uint8Array(),
    readJson: () => ({}),
    header: (name: string) => (name === 'range' ? range : undefined),
  };
  return lambdaResult(await api.handle('content', request));
}

describe('file content past the Lambda answer cap', () => {
  it('answers the whole file 413 naming the Range way out, and that way out returns the whole file in parts', async () => {
    const { api, id } = await filesApiWithFile();
    const whole = await getContent(api, id);
    expect(whole.statusCode).toBe(413);
    const message = (JSON.parse(whole.body as string) as { error: { message: string } }).error.message;
    expect(message).toContain(`the answer is ${FILE_BYTES} bytes`);
    expect(message).toContain(`Range: bytes=0-${LAMBDA_PART_BYTES - 1}`);
    expect(message).toContain(`bytes=${LAMBDA_PART_BYTES}-${2 * LAMBDA_PART_BYTES - 1}`);

    // Following the message: parts of LAMBDA_PART_BYTES until Content-Range says the file is done.
    const parts: Buffer[] = [];
    for (let start = 0; start < FILE_BYTES; start += LAMBDA_PART_BYTES) {
      const part = await getContent(api, id, `bytes=${start}-${start + LAMBDA_PART_BYTES - 1}`);
      expect(part.statusCode).toBe(206);
      const end = Math.min(FILE_BYTES, start + LAMBDA_PART_BYTES) - 1;
      expect(part.headers?.['content-range']).toBe(`bytes ${start}-${end}/${FILE_BYTES}`);
      expect(part.headers?.['content-length']).toBe(String(end - start + 1));
      parts.push(Buffer.from(part.body as string, 'base64'));
    }
    expect(parts).toHaveLength(3);
    expect(Buffer.concat(parts).equals(content)).toBe(true);
  });

  it('answers a range past the end 416 with the size, and a suffix range with the last bytes', async () => {
    const { api, id } = await filesApiWithFile();
    const past = await getContent(api, id, `bytes=${FILE_BYTES}-`);
    expect(past.statusCode).toBe(416);
    expect(past.headers?.['content-range']).toBe(`bytes */${FILE_BYTES}`);
    const tail = await getContent(api, id, 'bytes=-10');
    expect(tail.statusCode).toBe(206);
    expect(Buffer.from(tail.body as string, 'base64').equals(content.subarray(FILE_BYTES - 10))).toBe(true);
  });
});

describe('rangeAsked', () => {
  it('reads one byte range, ignores what it does not take (the whole file is sent), refuses what is past the end', () => {
    expect(rangeAsked('bytes=0-9', 100)).toEqual({ kind: 'slice', range: { start: 0, end: 10 } });
    expect(rangeAsked('bytes=90-', 100)).toEqual({ kind: 'slice', range: { start: 90, end: 100 } });
    expect(rangeAsked('bytes=90-1000', 100)).toEqual({ kind: 'slice', range: { start: 90, end: 100 } });
    expect(rangeAsked('bytes=-500', 100)).toEqual({ kind: 'slice', range: { start: 0, end: 100 } });
    for (const ignored of [undefined, '', 'bytes=-', 'bytes=5-2', 'bytes=0-1,4-5', 'items=0-1', 'bytes=a-b', `bytes=${'9'.repeat(40)}-`])
      expect(rangeAsked(ignored, 100)).toEqual({ kind: 'whole' });
    expect(rangeAsked('bytes=100-', 100)).toEqual({ kind: 'unsatisfiable' });
    expect(rangeAsked('bytes=-0', 100)).toEqual({ kind: 'unsatisfiable' });
  });
});
