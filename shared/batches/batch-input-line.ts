import { decodeUtf8Strictly } from '../core/strict-utf8.js';
import { RerankError } from '../core/rerank-error.js';
import { parseJsonText } from '../dialects/wire-fields.js';

/** The envelope of one input line (BatchRequestInput): the route, its body and the caller's id for the reply. */
export interface BatchInputLine {
  readonly customId: string;
  readonly url: string;
  readonly body: unknown;
}

/** Why a line is not a request at all, with the custom_id when the line had a usable one. */
export class BadInputLineError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly customId?: string,
  ) {
    super(message);
    this.name = 'BadInputLineError';
  }
}

/** custom_id bound: ids are echoed on every output line and kept to detect duplicates. */
export const MAX_CUSTOM_ID_CHARS = 512;

/** Reads `{custom_id, method: "POST", url, body}`; `url` must equal the batch's endpoint (OpenAI's rule). */
export function parseBatchInputLine(bytes: Buffer, endpoint: string): BatchInputLine {
  let value: unknown;
  try {
    // The API's own JSON reader: the same nesting bound as a request body.
    value = parseJsonText(decodeUtf8Strictly(bytes, 'the line'), 'the line');
  } catch (error) {
    if (!(error instanceof RerankError)) throw error;
    throw new BadInputLineError('invalid_json', `${error.message} (one request object per line)`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new BadInputLineError('invalid_request', 'the line must be a JSON object');
  const line = value as Record<string, unknown>;
  const customId = line['custom_id'];
  if (typeof customId !== 'string' || customId === '' || customId.length > MAX_CUSTOM_ID_CHARS) {
    throw new BadInputLineError('missing_custom_id', `custom_id must be a non-empty string of at most ${MAX_CUSTOM_ID_CHARS} characters`);
  }
  if (line['method'] !== 'POST') throw new BadInputLineError('invalid_method', 'method must be "POST"', customId);
  if (line['url'] !== endpoint) {
    throw new BadInputLineError(
      'mismatched_url',
      `url must equal the batch's endpoint "${endpoint}" (got ${JSON.stringify(line['url'] ?? null)})`,
      customId,
    );
  }
  const body = line['body'];
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new BadInputLineError('invalid_body', 'body must be a JSON object', customId);
  return { customId, url: endpoint, body };
}
