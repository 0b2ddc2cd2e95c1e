import { describe, expect, it } from 'vitest';
import { RerankError } from '../../../shared/core/rerank-error.js';
import { countMultipartParts, multipartBoundary } from '../../../shared/http/files/count-multipart-parts.js';
import { parseMultipartForm } from '../../../shared/http/files/multipart-form.js';

/** A form encoded by the platform itself, as a client's fetch would send it. */
async function encoded(form: FormData): Promise<{ body: Uint8Array; contentType: string }> {
  const response = new Response(form);
  return { body: new Uint8Array(await response.arrayBuffer()), contentType: response.headers.get('content-type') ?? '' };
}

describe('multipart forms: parts counted before they are parsed', () => {
  it('counts the parts of a real form, whatever the file holds', async () => {
    const form = new FormData();
    form.set('purpose', 'batch');
    form.set('expires_after[anchor]', 'created_at');
    // File content that looks like a delimiter but is not one (not after CRLF) is not counted.
    form.set('file', new Blob(['x--boundary\n{"a":1}\n']), 'in.jsonl');
    const { body, contentType } = await encoded(form);
    const boundary = multipartBoundary(contentType);
    expect(boundary).toBeDefined();
    expect(countMultipartParts(body, boundary!)).toBe(3);
    const parsed = await parseMultipartForm(body, contentType, 'file', 8);
    expect(parsed.fields.get('purpose')).toBe('batch');
    expect(parsed.file?.size).toBe(20);
  });

  it('reads a quoted boundary and refuses one RFC 2046 forbids', () => {
    expect(multipartBoundary('multipart/form-data; boundary="a b c"')).toBe('a b c');
    expect(multipartBoundary('multipart/form-data; boundary=abc; charset=utf-8')).toBe('abc');
    expect(multipartBoundary(`multipart/form-data; boundary=${'x'.repeat(71)}`)).toBeUndefined();
  });

  it('refuses a 6 MiB form of ~90,000 tiny parts with a 400 before the form parser runs', async () => {
    const boundary = 'b0undary';
    const part = `--${boundary}\r\nContent-Disposition: form-data; name="x"\r\n\r\ny\r\n`;
    const count = Math.floor((6 * 1024 * 1024) / part.length);
    const body = Buffer.from(part.repeat(count) + `--${boundary}--\r\n`);
    expect(countMultipartParts(body, boundary)).toBe(count);
    expect(count).toBeGreaterThan(80_000);
    const refused = await parseMultipartForm(body, `multipart/form-data; boundary=${boundary}`, 'file', 8).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(RerankError);
    expect(refused).toMatchObject({ kind: 'invalid_request', param: 'file' });
    expect((refused as Error).message).toContain(`${count} parts`);
  });
});
