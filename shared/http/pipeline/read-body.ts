import { decodeUtf8Strictly } from '../../core/strict-utf8.js';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { invalidRequest } from '../../core/rerank-error.js';
import { parseJsonText } from '../../dialects/wire-fields.js';
import type { UntypedJsonBody } from '../../dialects/dialect.js';
import type { Route } from '../api-routes.js';
import { bodyTooLargeError } from '../body-too-large-error.js';
import { requireJsonContentType } from '../require-json-content-type.js';
import { header } from './api-exchange.js';

/** The body's bytes, refused past the limit (the local server already refused an announced oversize body unread). */
export function readBodyBytes(event: APIGatewayProxyEventV2, maxBytes: number, route?: Pick<Route, 'method' | 'path' | 'action'>): Buffer {
  const raw = event.body ?? '';
  const bytes = event.isBase64Encoded ? Buffer.from(raw, 'base64') : Buffer.from(raw, 'utf8');
  if (bytes.length > maxBytes) {
    throw bodyTooLargeError(route, bytes.length, maxBytes);
  }
  return bytes;
}

/** The form `alsoAs` names for a Content-Type: none, octet-stream (parameters aside), or another (never listed). */
function untypedForm(contentType: string | undefined): UntypedJsonBody | 'other' {
  const media = (contentType ?? '').split(';', 1)[0]!.trim().toLowerCase();
  return media === '' ? 'none' : media === 'application/octet-stream' ? media : 'other';
}

/**
 * A JSON body: its content type, its size and its syntax checked, in that order. `alsoAs`: the other forms a body is
 * read as JSON under (no Content-Type, `application/octet-stream`: Dialect.jsonBodyAlsoAs); any other type is refused. `route`
 * names the route in a size refusal (its hint says how to send more).
 */
export function readJsonBody(
  event: APIGatewayProxyEventV2,
  maxBytes: number,
  options: { readonly alsoAs?: readonly UntypedJsonBody[]; readonly route?: Pick<Route, 'method' | 'path' | 'action'> } = {},
): unknown {
  const contentType = header(event, 'content-type');
  const form = untypedForm(contentType);
  if (form === 'other' || !(options.alsoAs ?? []).includes(form)) requireJsonContentType(contentType);
  const bytes = readBodyBytes(event, maxBytes, options.route);
  if (bytes.length === 0) throw invalidRequest('request body is empty; a JSON object is expected', 'body');
  return parseJsonText(decodeUtf8Strictly(bytes, 'the request body', 'body'), 'request body');
}
