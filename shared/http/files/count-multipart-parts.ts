/**
 * How many parts a multipart/form-data body has, counted with one linear scan for its boundary delimiter
 * (`--boundary` at the start or after CRLF). Done before the platform's form parser, which spent 3-5.6 s of the one
 * event loop on a 6 MiB form of ~90,000 tiny parts: a form with more parts than its route takes is refused first.
 */
export function countMultipartParts(body: Uint8Array, boundary: string): number {
  const buffer = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  const delimiter = Buffer.from(`--${boundary}`, 'latin1');
  let delimiters = 0;
  for (let at = buffer.indexOf(delimiter); at !== -1; at = buffer.indexOf(delimiter, at + delimiter.length)) {
    if (at === 0 || (buffer[at - 2] === 0x0d && buffer[at - 1] === 0x0a)) delimiters += 1;
  }
  // n parts have n opening delimiters and one closing one (`--boundary--`).
  return Math.max(0, delimiters - 1);
}

/** The boundary a multipart Content-Type names (quoted or not); undefined when it names none or one RFC 2046 forbids. */
export function multipartBoundary(contentType: string): string | undefined {
  const match = /;\s*boundary=(?:"([^"]{1,70})"|([^\s;"]{1,70}))(?:\s*;|\s*$)/i.exec(contentType);
  return match?.[1] ?? match?.[2];
}
