import { invalidRequest, RerankError } from '../../core/rerank-error.js';
import { countMultipartParts, multipartBoundary } from './count-multipart-parts.js';

/** A multipart/form-data body's text fields and its one file field. */
export interface MultipartForm {
  readonly fields: ReadonlyMap<string, string>;
  readonly file?: { readonly name: string; readonly field: string; readonly bytes: AsyncIterable<Uint8Array>; readonly size: number };
}

/**
 * Reads a `multipart/form-data` request body (already bounded by the API's body limit, as Lambda bounds it) with the
 * platform's own form parser. The file's bytes are handed on as a stream of the parsed part. A form of more than
 * `maxParts` parts (what the route takes, with room) is refused before that parser runs: its cost grows with the
 * number of parts, and it runs on the event loop every request shares.
 */
export async function parseMultipartForm(
  body: Uint8Array,
  contentType: string | undefined,
  fileField: string,
  maxParts: number,
): Promise<MultipartForm> {
  if (contentType === undefined || !/^multipart\/form-data\s*;.*boundary=/i.test(contentType)) {
    throw new RerankError(
      'unsupported_media_type',
      `send the ${fileField} as multipart/form-data (Content-Type: multipart/form-data; boundary=...)`,
    );
  }
  const boundary = multipartBoundary(contentType);
  if (boundary === undefined) throw invalidRequest('the multipart/form-data boundary must be 1 to 70 characters', fileField);
  const parts = countMultipartParts(body, boundary);
  if (parts > maxParts) throw invalidRequest(`the form has ${parts} parts; this route takes at most ${maxParts}`, fileField);
  let form: FormData;
  try {
    form = await new Response(body, { headers: { 'content-type': contentType } }).formData();
  } catch {
    throw invalidRequest('the multipart/form-data body could not be parsed', fileField);
  }
  const fields = new Map<string, string>();
  let file: MultipartForm['file'];
  for (const [name, value] of form.entries()) {
    if (typeof value === 'string') fields.set(name, value);
    else if (name === fileField && file === undefined) {
      const blob = value as File;
      file = { name: blob.name, field: name, size: blob.size, bytes: blob.stream() as unknown as AsyncIterable<Uint8Array> };
    }
  }
  return { fields, ...(file === undefined ? {} : { file }) };
}
