import { RerankError } from '../core/rerank-error.js';
import { DEFAULT_FILE_LIMITS } from '../files/file-limits.js';
import { partTooLargeError } from '../files/part-too-large-error.js';
import type { Route } from './api-routes.js';

const MiB = 1024 * 1024;
const mib = (bytes: number): string => (bytes % MiB === 0 ? `${bytes / MiB} MiB` : `${(bytes / MiB).toFixed(1)} MiB`);

/**
 * The 413 for a request body past the API's limit. On a rerank route it names the ways out (split, a batch over a
 * corpus file). On `POST /v1/files` it names the way a larger file goes in, the
 * Uploads API and its part size, because every OpenAI SDK's `files.create` sends the whole file in one body and a
 * reader who hits this limit has no other hint; on the parts route it names the part size.
 * `size` is the body's size as known: a byte count, or "more than N bytes" when the reading stopped at N.
 */
export function bodyTooLargeError(
  route: Pick<Route, 'method' | 'path' | 'action'> | undefined,
  size: number | { readonly moreThan: number },
  maxBytes: number,
): RerankError {
  const seen = typeof size === 'number' ? `${size} bytes` : `more than ${size.moreThan} bytes`;
  const base = `request body is ${seen}; the limit is ${maxBytes} bytes (${mib(maxBytes)})`;
  const part = DEFAULT_FILE_LIMITS.maxPartBytes;
  if (route?.method === 'POST' && route.path === '/v1/files') {
    return new RerankError(
      'payload_too_large',
      `${base}. Send a file this large through the Uploads API: POST /v1/uploads {filename, purpose, bytes, mime_type}, ` +
        `then POST /v1/uploads/{upload_id}/parts with parts of at most ${part} bytes (${mib(part)}), then POST ` +
        `/v1/uploads/{upload_id}/complete {part_ids}; the OpenAI Python SDK does all three with ` +
        `client.uploads.upload_file_chunked(file=..., mime_type="application/jsonl", purpose="batch", part_size=${part})`,
      { param: 'file' },
    );
  }
  if (route?.method === 'POST' && route.path === '/v1/uploads/{id}/parts') return partTooLargeError(`${base}; `, part);
  const ranks = route?.action.kind === 'rerank' || route?.action.kind === 'submit-job';
  return new RerankError('payload_too_large', ranks ? `${base}. ${SPLIT_OR_BATCH}` : base);
}

/**
 * The ways past the body limit of one request: fewer documents per request, or the documents stored once as a corpus
 * file and ranked by a batch (a job, `Prefer: respond-async`, takes the same body, so it is named for the wait only).
 */
const SPLIT_OR_BATCH =
  'Split the documents over several requests (a long wait is no reason: send Prefer: respond-async for a job), or ' +
  'store them once as a corpus file, one document a line (npm run batch -- upload corpus.jsonl; POST /v1/files, or ' +
  'POST /v1/uploads in parts for a larger one) and rank it with a batch whose lines name it as documents_file_id (POST /v1/batches)';
