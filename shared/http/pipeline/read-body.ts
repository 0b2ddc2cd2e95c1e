import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { RerankError, invalidRequest } from '../../core/rerank-error.js';
import { parseJsonText } from '../../dialects/wire-fields.js';
import { requireJsonContentType } from '../require-json-content-type.js';
import { header } from './api-exchange.js';

/** The body's bytes, refused past the limit (the local server already refused an announced oversize body unread). */
export function readBodyBytes(event: APIGatewayProxyEventV2, maxBytes: number): Buffer {
  const raw = event.body ?? '';
  const bytes = event.isBase64Encoded ? Buffer.from(raw, 'base64') : Buffer.from(raw, 'utf8');
  if (bytes.length > maxBytes) {
    throw new RerankError('payload_too_large', `request body is ${bytes.length} bytes; the limit is ${maxBytes} bytes`);
  }
  return bytes;
}

/**
 * A JSON body: its content type, its size and its syntax checked, in that order. `untyped`: a body sent with no
 * Content-Type at all is read as JSON too (Weaviate's Go client sends none); any other type is still refused.
 */
export function readJsonBody(event: APIGatewayProxyEventV2, maxBytes: number, options: { readonly untyped?: boolean } = {}): unknown {
  const contentType = header(event, 'content-type');
  if (!(options.untyped === true && (contentType === undefined || contentType.trim() === ''))) requireJsonContentType(contentType);
  const bytes = readBodyBytes(event, maxBytes);
  if (bytes.length === 0) throw invalidRequest('request body is empty; a JSON object is expected', 'body');
  return parseJsonText(bytes.toString('utf8'), 'request body');
}
