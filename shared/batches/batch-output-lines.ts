import { randomUUID } from 'node:crypto';
import type { BatchRequestResult } from './batch-model.js';

/** OpenAI's per-line id for outputs. */
const requestLineId = (): string => `batch_req_${randomUUID().replace(/-/g, '')}`;

/** An output-file line: the route's reply body for the line's body (BatchRequestOutput). */
export function completedLine(line: number, customId: string, requestId: string, body: unknown): BatchRequestResult {
  const jsonl = JSON.stringify({
    id: requestLineId(),
    custom_id: customId,
    response: { status_code: 200, request_id: requestId, body },
    error: null,
  });
  return { line, outcome: 'completed', jsonl };
}

/**
 * An error-file line. `response` is the route's error reply when the route refused the body (the status and
 * envelope a synchronous call would have got); absent for lines that never reached a route. The message
 * always names the input line.
 */
export function failedLine(
  line: number,
  customId: string | undefined,
  error: { readonly code: string; readonly message: string },
  response?: { readonly statusCode: number; readonly requestId: string; readonly body: unknown },
): BatchRequestResult {
  const jsonl = JSON.stringify({
    id: requestLineId(),
    ...(customId === undefined ? {} : { custom_id: customId }),
    response: response ? { status_code: response.statusCode, request_id: response.requestId, body: response.body } : null,
    error: { code: error.code, message: `line ${line}: ${error.message}` },
  });
  return { line, outcome: 'failed', jsonl };
}

/**
 * The error line of a request whose file (its corpus, or the input file) was deleted while it was being scored: a
 * client error naming the file; retrying cannot bring the file back, so it never fails the task.
 */
export const fileGoneLine = (line: number, customId: string | undefined, fileId: string): BatchRequestResult =>
  failedLine(line, customId, {
    code: 'file_not_found',
    message: `file '${fileId}' was deleted while this request was being scored; upload it again and send the request in a new batch`,
  });
