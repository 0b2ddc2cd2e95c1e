import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { invalidRequest } from '../../core/rerank-error.js';
import { parseJsonText } from '../../dialects/wire-fields.js';
import type { Route } from '../api-routes.js';
import { bodyTooLargeError } from '../body-too-large-error.js';
import { requireJsonContentType } from '../require-json-content-type.js';
import { header } from './api-exchange.js';

/** The body's bytes, refused past the limit (the local server already refused an announced oversize body unread). */
export function readBodyBytes(event: APIGatewayProxyEventV2, maxBytes: number, route?: Pick<Route, 'method' | 'path'>): Buffer {
  const raw = event.body ?? '';
  const bytes = event.isBase64Encoded ? Buffer.from(raw, 'base64') : Buffer.from(raw, 'utf8');
  if (bytes.length > maxBytes) {
    throw bodyTooLargeError(route, bytes.length, maxBytes);
  }
  return bytes;
}

/**
 * A JSON body: its content type, its size and its syntax checked, in that order. `untyped`: a body sent with no
 * Content-Type at all is read as JSON too (Weaviate's Go client sends none); any other type is still refused.
 */
export function readJsonBody(
  event: APIGatewayProxyEventV2,
  maxBytes: number,
  route?: Pick<Route, 'method' | 'path'>,
  options: { readonly untyped?: boolean } = {},
): unknown {
  const contentType = header(event, 'content-type');
  if (!(options.untyped === true && (contentType === undefined || contentType.trim() === ''))) requireJsonContentType(contentType);
  const bytes = readBodyBytes(event, maxBytes, route);
  if (bytes.length === 0) throw invalidRequest('request body is empty; a JSON object is expected', 'body');
  return parseJsonText(bytes.toString('utf8'), 'request body');
}
