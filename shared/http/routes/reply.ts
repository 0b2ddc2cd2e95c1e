import type { DialectResponse } from '../../dialects/dialect.js';
import { eventStreamResult } from '../event-stream-result.js';
import { json, type ApiResult } from '../pipeline/api-exchange.js';

/** A dialect's reply: its JSON body, or the server-sent events the client asked for. */
export const reply = (formatted: DialectResponse, headers: Record<string, string>): ApiResult =>
  formatted.events
    ? eventStreamResult(formatted.status, formatted.events, { ...formatted.headers, ...headers })
    : json(formatted.status, formatted.body, { ...formatted.headers, ...headers });
