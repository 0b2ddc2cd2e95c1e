import { RerankError } from '../core/rerank-error.js';

/**
 * POST bodies must say they are JSON (`application/json`, UTF-8 if a charset is named). Without this a
 * web page could drive a local, key-less server with a CORS-simple request (text/plain, form types or
 * no type at all), which browsers send cross-origin without a preflight.
 */
export function requireJsonContentType(contentType: string | undefined): void {
  const [mediaType = '', ...params] = (contentType ?? '').split(';').map((p) => p.trim().toLowerCase());
  const charset = params
    .find((p) => p.startsWith('charset='))
    ?.slice('charset='.length)
    .replace(/^"|"$/g, '');
  if (mediaType === 'application/json' && (charset === undefined || charset === 'utf-8' || charset === 'utf8')) return;
  const got = contentType === undefined || contentType.trim() === '' ? 'no Content-Type' : `Content-Type '${contentType.slice(0, 100)}'`;
  throw new RerankError('unsupported_media_type', `request bodies must be JSON sent as Content-Type: application/json; got ${got}`);
}
