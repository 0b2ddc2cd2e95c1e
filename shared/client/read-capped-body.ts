import { RerankResponseTooLargeError } from './rerank-client-errors.js';

/**
 * Reads a reply body as UTF-8 text, at most `maxBytes` of it: past the cap the stream is cancelled
 * (the connection is dropped) and RerankResponseTooLargeError is thrown, so a hostile or broken
 * server cannot make the reader buffer an unbounded body. A declared Content-Length over the cap
 * fails before reading anything.
 */
export async function readCappedBody(response: Response, maxBytes: number, where: string): Promise<string> {
  const tooLarge = () => new RerankResponseTooLargeError(`${where}: reply body exceeds ${maxBytes} bytes`, maxBytes);
  const declared = Number(response.headers.get('content-length') ?? Number.NaN);
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel().catch(() => undefined);
    throw tooLarge();
  }
  if (!response.body) return '';
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let size = 0;
  let text = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge();
    }
    text += decoder.decode(value, { stream: true });
  }
  return text + decoder.decode();
}
