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

/** A JSON body: its content type, its size and its syntax checked, in that order. */
export function readJsonBody(event: APIGatewayProxyEventV2, maxBytes: number): unknown {
  requireJsonContentType(header(event, 'content-type'));
  const bytes = readBodyBytes(event, maxBytes);
  if (bytes.length === 0) throw invalidRequest('request body is empty; a JSON object is expected', 'body');
  return parseJsonText(bytes.toString('utf8'), 'request body');
}
